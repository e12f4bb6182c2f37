import { SMTPServer } from "smtp-server";

/** One message the server accepted: its envelope recipients and its text (quoted-printable decoded). */
export interface ReceivedMail {
  to: string[];
  raw: string;
  text: string;
}

const decodeQuotedPrintable = (s: string) =>
  Buffer.from(s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8");

/**
 * A real SMTP server for the tests (smtp-server from npm, nodemailer's own), on a free port or a
 * given one; no TLS, no authentication. Issue 27 item 20: e-mail is tested against a server.
 */
export async function startSmtpServer(port = 0, opts: { unknownUsers?: readonly string[]; busyOnce?: readonly string[]; busyAlways?: readonly string[] } = {}) {
  const received: ReceivedMail[] = [];
  /** Every recipient the server refused, with its answer's code, in order. */
  const refused: { to: string; code: number }[] = [];
  const busy = new Set(opts.busyOnce ?? []);
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // A mailbox that does not exist: the permanent refusal real servers answer ("550 No such user").
    onRcptTo(address, _session, callback) {
      if (opts.unknownUsers?.includes(address.address)) {
        refused.push({ to: address.address, code: 550 });
        return callback(Object.assign(new Error("5.1.1 No such user"), { responseCode: 550 }));
      }
      // A mailbox busy once (a temporary answer, 4xx): the next try is taken; busy always: never.
      if (busy.delete(address.address) || opts.busyAlways?.includes(address.address)) {
        refused.push({ to: address.address, code: 451 });
        return callback(Object.assign(new Error("4.2.1 Mailbox busy, try again later"), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, text: decodeQuotedPrintable(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.server.address() as { port: number };
  return {
    port: address.port,
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    refused,
    /** The messages to `to`, oldest first. */
    to: (to: string) => received.filter((m) => m.to.includes(to)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (an SMTP server that is down). */
export async function freePort(): Promise<number> {
  const s = await startSmtpServer();
  await s.close();
  return s.port;
}
