import { libraryRegister } from '../../contracts/library/accounts.contract.js';
import { libraryChat } from '../../contracts/library/chat.contract.js';
import { libraryImport } from '../../contracts/library/import.contract.js';
import { writesInTransaction } from '../shared/write-transaction.js';

/**
 * The `around` of the library: every mutation runs in one transaction (docs/adr/0045), but
 * for three that commit by themselves — chat, which waits seconds on a model and writes
 * nothing of its own; an import, which commits its books and only then indexes them; and a
 * registration, which counts its client address whatever the outcome, before the
 * transaction that claims its registration windows and issues the key.
 * The library keeps no `Idempotency-Key`s: no library contract declares `idempotency`.
 */
export const libraryWrites = writesInTransaction({ outside: [libraryChat, libraryImport, libraryRegister] });
