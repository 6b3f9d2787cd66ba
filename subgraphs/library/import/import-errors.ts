/** Malformed import input; carries the 1-based line number (and field, when one is at fault) for the operator. */
export class ImportFormatError extends Error {
  override readonly name = 'ImportFormatError';
  readonly line: number;
  readonly field: string | null;
  readonly reason: string;

  constructor(line: number, reason: string, field: string | null = null) {
    super(field === null ? `line ${line}: ${reason}` : `line ${line}: field "${field}": ${reason}`);
    this.line = line;
    this.field = field;
    this.reason = reason;
  }
}
