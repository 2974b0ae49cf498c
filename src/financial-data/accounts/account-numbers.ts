/**
 * The key an account number is matched by — an imported statement's IBAN or Othr/Id against the
 * identifiers of the organization's accounts, of every type registration accepts (IBAN, NUMBER,
 * SE_BANKGIRO, …), and a new account's identifiers against those already registered. Spaces, dots,
 * hyphens and slashes are left out and letters upper-cased: banks write one number in several ways
 * (a Norwegian 1503.12.34567 is 15031234567 in a statement, a Swiss postal account 30-38162-5 or
 * 30381625). Two numbers that differ only so would be one account; the organization's accounts are
 * checked for such a clash when one is registered.
 */
export function accountNumberKey(number: string): string {
  return number.replace(/[\s./-]+/g, '').toUpperCase()
}
