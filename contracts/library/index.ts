import type { OperationContract } from '../operation.js';
import {
  libraryAccountKeys,
  libraryCreateAccountKey,
  libraryMe,
  libraryPlans,
  libraryRegister,
  libraryUsage,
} from './accounts.contract.js';
import {
  libraryAdminCreateKey,
  libraryAdminSetKeyPlan,
  libraryAdminSetKeyRpd,
  libraryAdminSetKeyStatus,
  libraryAdminStats,
} from './admin.contract.js';
import { libraryAuthors, libraryBook, libraryBooks, libraryCategories, libraryPage, libraryStats, libraryToc } from './catalog.contract.js';
import { libraryChat, libraryModels } from './chat.contract.js';
import { libraryRetrieve, librarySearch } from './content.contract.js';
import { libraryImport, libraryImportFile } from './import.contract.js';
import { libraryDocs, libraryHealth } from './service.contract.js';

/** Every operation of the library (seed 000). */
export const LIBRARY_CONTRACTS: readonly OperationContract[] = [
  libraryHealth,
  libraryPlans,
  libraryDocs,
  libraryRegister,
  libraryMe,
  libraryUsage,
  libraryAccountKeys,
  libraryCreateAccountKey,
  libraryRetrieve,
  librarySearch,
  libraryPage,
  libraryBook,
  libraryToc,
  libraryBooks,
  libraryCategories,
  libraryAuthors,
  libraryStats,
  libraryChat,
  libraryModels,
  libraryAdminCreateKey,
  libraryAdminSetKeyPlan,
  libraryAdminSetKeyRpd,
  libraryAdminSetKeyStatus,
  libraryAdminStats,
  libraryImportFile,
  libraryImport,
];
