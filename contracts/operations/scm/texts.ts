import { ops } from '../fields.js';

/** A free-text reason or comment of `min`…`max` characters, with an example for the documentation. */
export const reasonText = (min: number, max: number, example = 'Documents checked with the accounting department') =>
  ops.text(min, max).meta({ examples: [example] });

/** An optional search text matched against names and codes. */
export const searchText = () =>
  ops.text(1, 200).optional().describe('Case-insensitive substring of the name or code, up to 200 characters.');
