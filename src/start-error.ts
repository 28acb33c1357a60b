/**
 * A start that airgift refuses, with the reason in words an operator can act on (a data directory
 * held by another process, a damaged or missing file, a full disk, a port in use). main.ts prints the
 * message alone, without a stack, and exits 1.
 *
 * @example
 * throw new StartError(`${path} is empty: restore it from a backup`);
 */
export class StartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartError';
  }
}
