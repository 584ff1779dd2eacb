/**
 * A person as someone deciding sees them: the name, with the e-mail address below it. Two accounts
 * can share a name, never an address, so the address tells an alias from its owner.
 */

/** "Ada Lovelace <ada@bank.example>", or the address alone when the account has no name. */
export function personText(name: string, email: string | null): string {
  return email && email !== name ? `${name} <${email}>` : name;
}

export function Person(
  { name, email, prefix = "" }: { name: string; email: string | null; prefix?: string },
) {
  return (
    <>
      <span className="block font-medium">{prefix}{name}</span>
      {email && email !== name && <span className="block break-all text-xs text-slate-600">{email}</span>}
    </>
  );
}
