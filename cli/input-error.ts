/** Bad input to a command (a batch file, a run file): exits with 2 and a message naming the field. */
export class InputError extends Error {}
