/**
 * The password rules that need no word list, as NIST SP 800-63B (5.1.1.2) asks: length counted in
 * characters after NFKC normalisation, no control characters, not only white space, and nothing
 * built from the person's own e-mail address or names or from the console's own words. The server
 * adds the breached-password list and the strength estimate (src/server/auth/passwords.ts). Each
 * problem is one sentence saying why, without a closing full stop (joined by the caller). Pure module: no I/O.
 */

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
/** Shorter names ("Li", "Ng") occur inside too many good passwords to be refused on sight. */
const MIN_CONTEXT_WORD_LENGTH = 4;
/** What must remain of a password once the console's words are taken out. */
const MIN_OWN_LENGTH = 8;

/** Words of the service itself, which an attacker tries first (NIST's "context-specific words"). */
export const CONSOLE_WORDS: readonly string[] = [
  "central",
  "bank",
  "registry",
  "console",
  "centralbank",
  "central bank registry",
  "central bank registry console",
];

/** The person the password is for. */
export interface PasswordOwner {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
}

/** Common substitutions undone ("p@ssw0rd" → "password"), both readings of "1". */
const SUBSTITUTIONS: Readonly<Record<string, string>> = {
  "@": "a",
  "4": "a",
  "3": "e",
  "0": "o",
  "$": "s",
  "5": "s",
  "7": "t",
  "!": "i",
  "|": "l",
};

/** Lower-case letters and digits only, after NFKC, with look-alike digits and symbols as letters. */
function readings(text: string): string[] {
  const plain = text.normalize("NFKC").toLowerCase();
  const unsubstituted = [...plain].map((character) => SUBSTITUTIONS[character] ?? character).join("");
  return [plain, unsubstituted.replaceAll("1", "i"), unsubstituted.replaceAll("1", "l")]
    .map((reading) => reading.replace(/[^\p{L}\p{N}]/gu, ""));
}

const squeeze = (text: string) => text.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** The e-mail address and its part before the @, and the names, as the words to look for. */
export function ownerWords(owner: PasswordOwner): { email: string[]; names: string[] } {
  const email = owner.email.trim().toLowerCase();
  const local = email.split("@")[0] ?? "";
  const names = [owner.firstName, owner.lastName].filter((name): name is string => !!name?.trim());
  return { email: [email, local], names };
}

const containsAny = (password: string, words: readonly string[]) => {
  const wanted = words.map(squeeze).filter((word) => word.length >= MIN_CONTEXT_WORD_LENGTH);
  return readings(password).some((reading) => wanted.some((word) => reading.includes(word)));
};

/**
 * Whether the console's words carry the password: once they are taken out, what is left (what an
 * attacker must still guess) is short.
 */
function builtFromConsoleWords(password: string): boolean {
  const words = CONSOLE_WORDS.map(squeeze).sort((a, b) => b.length - a.length);
  return readings(password).some((reading) => {
    const rest = words.reduce((left, word) => left.replaceAll(word, ""), reading);
    return rest.length < reading.length && rest.length < MIN_OWN_LENGTH;
  });
}

function characterProblems(normalized: string, minLength: number): string[] {
  const problems: string[] = [];
  const length = [...normalized].length;
  if (length < minLength) {
    problems.push(`Password must be at least ${minLength} characters`);
  }
  if (length > MAX_PASSWORD_LENGTH) {
    problems.push(`Password must be at most ${MAX_PASSWORD_LENGTH} characters`);
  }
  if (/[\p{Cc}\p{Zl}\p{Zp}]/u.test(normalized)) {
    problems.push("The password contains a control character (such as NUL, a tab or a line break)");
  }
  if (length > 0 && /^[\p{White_Space}\p{Default_Ignorable_Code_Point}]+$/u.test(normalized)) {
    problems.push("The password is only white space");
  }
  return problems;
}

/**
 * Every rule the password breaks, one sentence each; empty when it passes them all. `minLength` is
 * the administrators' password policy (src/domain/system_settings.ts), never below the floor.
 */
export function passwordRuleProblems(
  password: string,
  owner: PasswordOwner,
  minLength: number = MIN_PASSWORD_LENGTH,
): string[] {
  if (password.length > MAX_PASSWORD_LENGTH * 4) return [`Password must be at most ${MAX_PASSWORD_LENGTH} characters`];
  const normalized = password.normalize("NFKC");
  const problems = characterProblems(normalized, Math.max(MIN_PASSWORD_LENGTH, minLength));
  const words = ownerWords(owner);
  if (containsAny(password, [words.email[0]])) problems.push("The password contains your e-mail address");
  else if (containsAny(password, [words.email[1]])) {
    problems.push("The password contains the part of your e-mail address before the @");
  }
  if (containsAny(password, words.names)) problems.push("The password contains your name");
  if (builtFromConsoleWords(password)) {
    problems.push("The password is built from the console's own words (central bank, registry, console)");
  }
  return problems;
}

/** The strength estimator's extra dictionary: the person's words and the console's. */
export function passwordUserInputs(owner: PasswordOwner): string[] {
  const words = ownerWords(owner);
  return [...words.email, ...words.names, ...CONSOLE_WORDS];
}
