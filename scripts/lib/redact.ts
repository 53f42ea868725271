// Secrets out of the launcher's output. `next dev` prints every server-action call with its
// arguments as JSON (Next's `logging.serverFunctions`, on by default in development):
//   └─ ƒ signInAction({"email":"ada@example.com","password":"…"}) in 85ms lib/actions/auth.ts
// and any log line may carry a request body or an environment. The launcher passes every line
// of its children through redactSecrets (scripts/lib/processes.ts), so a value whose name says
// it is a secret never reaches the terminal or a log file, whatever action or code printed it.

/** Names of secret values: passwords, passphrases, secrets, tokens, API and private keys, credentials, cookies. */
const SECRET_NAME = String.raw`[\w.-]*(?:passw|passphrase|secret|token|api[_-]?key|apikey|private[_-]?key|access[_-]?key|credential|authorization|cookie|signature)[\w.-]*`;

export const REDACTED = "[redacted]";

// "name": "value" (JSON, as Next prints arguments), and the same escaped inside a JSON string.
const JSON_PAIR = new RegExp(String.raw`("${SECRET_NAME}"\s*:\s*)"(?:[^"\\]|\\.)*"`, "gi");
// Inside a JSON string, the inner string's backslash is `\\` and its quote `\"`; an inner escape is `\\` and the next character (itself maybe escaped).
const ESCAPED_JSON_PAIR = new RegExp(String.raw`(\\"${SECRET_NAME}\\"\s*:\s*)\\"(?:\\\\(?:\\.|[^\\"])|\\[^\\"]|[^\\"])*\\"`, "gi");
// name=value (query strings, form bodies, environment dumps), and name: value (headers).
const ASSIGNMENT = new RegExp(String.raw`(\b${SECRET_NAME}=)[^&\s"',;]+`, "gi");
const HEADER = new RegExp(String.raw`(\b(?:authorization|cookie|set-cookie|x-api-key)\s*:\s*)[^"\n]+`, "gi");

/** `line` with the values of secret-named fields replaced by [redacted]. */
export function redactSecrets(line: string): string {
  return line
    .replace(JSON_PAIR, `$1"${REDACTED}"`)
    .replace(ESCAPED_JSON_PAIR, `$1\\"${REDACTED}\\"`)
    .replace(ASSIGNMENT, `$1${REDACTED}`)
    .replace(HEADER, `$1${REDACTED}`);
}
