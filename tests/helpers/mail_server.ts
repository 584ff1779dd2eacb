/** A real SMTP server for tests (smtp-server on 127.0.0.1), keeping what it receives. */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface Received {
  to: string[];
  data: string;
}

export interface MailServer {
  received: Received[];
  port: number;
  stop(): Promise<void>;
}

/** Without `login` any client may send; with it, only that user name and password. */
export async function startMailServer(login?: { user: string; password: string }): Promise<MailServer> {
  const received: Received[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: login === undefined,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (login && auth.username === login.user && auth.password === login.password) {
        return callback(null, { user: login.user });
      }
      callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      let data = "";
      stream.on("data", (chunk: Uint8Array) => data += new TextDecoder().decode(chunk));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { received, port, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The message as a person reads it: quoted-printable soft breaks and escapes undone. */
export const readable = (data: string) =>
  data.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
