/**
 * The reference a customer writes on their bank transfer so the operator knows which account it
 * funds: `AG-<accountId>-<check>`, stable for the account, short enough for any bank's reference
 * field, and checked by two digits of ISO 7064 MOD 97-10 (as in an IBAN), so one mistyped or two
 * swapped digits are caught when the operator reads it back.
 *
 * @example
 * referenceOf(42); // 'AG-42-69'
 * accountOfReference('ag-42-69'); // 42
 * accountOfReference('AG-24-69'); // null (the check fails)
 */
export function referenceOf(accountId: number): string {
  return `AG-${accountId}-${checkOf(BigInt(accountId))}`;
}

/** The account a reference names, or null when it is not one (wrong shape or check digits). */
export function accountOfReference(text: string): number | null {
  const m = /^AG-(\d{1,15})-(\d{2})$/i.exec(text.trim());
  if (!m) return null;
  const id = BigInt(m[1]);
  if (id < 1n || (id * 100n + BigInt(m[2])) % 97n !== 1n) return null;
  return Number(id);
}

function checkOf(id: bigint): string {
  return String(98n - ((id * 100n) % 97n)).padStart(2, '0');
}
