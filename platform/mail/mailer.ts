import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import { observe } from "../../server/observe.mjs";

const logMail = (line: string) => observe("platform").logger.info({ component: "mail" }, line);

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Stops the retry of spooled messages (tests, shutdown). */
  stop?(): void;
}

export interface MailerOptions {
  smtpUrl?: string;
  outboxDir: string;
  from: string;
  log?: (line: string) => void;
  /** Where messages the SMTP server did not take wait to be sent again (default: `spool` beside the outbox). */
  spoolDir?: string;
  /** First wait before sending spooled messages again; doubles up to 10 minutes (default 30 s). */
  retryMs?: number;
}

/**
 * Real e-mail through nodemailer. With SMTP_URL it goes to that server; the embedded default
 * writes each message as an .eml file to `outboxDir` and logs one line, so a local user (and the
 * end-to-end tests) can read the code or link.
 *
 * SMTP down (issue 27 item 20): `send` throws, so the call answers its clear error (503 'The
 * e-mail could not be sent…'), but nothing is lost: the message is written to the spool and sent
 * again in the background until the server takes it (then its file is removed).
 */
export function createMailer(opts: MailerOptions): Mailer {
  if (opts.smtpUrl) return smtpMailer({ ...opts, smtpUrl: opts.smtpUrl });
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(m) {
      const info = await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text });
      fs.mkdirSync(opts.outboxDir, { recursive: true });
      const safeTo = m.to.replace(/[^a-zA-Z0-9@._-]/g, "_");
      const file = path.join(opts.outboxDir, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}-${safeTo}.eml`);
      fs.writeFileSync(file, info.message as Buffer);
      (opts.log ?? logMail)(`[mail] "${m.subject}" to ${m.to} written to ${file}`);
    },
  };
}

function smtpMailer(opts: MailerOptions & { smtpUrl: string }): Mailer {
  const transport = nodemailer.createTransport(opts.smtpUrl);
  const log = opts.log ?? logMail;
  const spoolDir = opts.spoolDir ?? path.join(path.dirname(opts.outboxDir), "mail-spool");
  const firstWait = opts.retryMs ?? 30_000;
  let wait = firstWait;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const deliver = (m: MailMessage) => transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text });

  /** Sends every spooled message again, oldest first; each one delivered leaves the spool. */
  async function retrySpool() {
    timer = null;
    let files: string[];
    try {
      files = fs.readdirSync(spoolDir).filter((f) => f.endsWith(".json")).sort();
    } catch {
      return;
    }
    for (const f of files) {
      const file = path.join(spoolDir, f);
      try {
        await deliver(JSON.parse(fs.readFileSync(file, "utf8")) as MailMessage);
        fs.rmSync(file, { force: true });
        log(`[mail] spooled message ${f} sent`);
      } catch (error) {
        log(`[mail] spooled message ${f} not sent yet: ${(error as Error).message}`);
        wait = Math.min(wait * 2, 10 * 60_000);
        return schedule();
      }
    }
    wait = firstWait;
  }
  function schedule() {
    if (stopped || timer) return;
    timer = setTimeout(() => void retrySpool(), wait);
    timer.unref();
  }
  // Messages left by a previous run go out too.
  if (fs.existsSync(spoolDir) && fs.readdirSync(spoolDir).length > 0) schedule();

  return {
    async send(m) {
      try {
        await deliver(m);
      } catch (error) {
        fs.mkdirSync(spoolDir, { recursive: true, mode: 0o700 });
        const file = path.join(spoolDir, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`);
        fs.writeFileSync(file, JSON.stringify(m), { mode: 0o600 });
        log(`[mail] "${m.subject}" to ${m.to} kept in ${file}, to be sent again: ${(error as Error).message}`);
        schedule();
        throw error;
      }
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/** Reads the newest outbox message to an address (used by tests and by local users). */
export function readLatestMail(outboxDir: string, to: string): string | null {
  if (!fs.existsSync(outboxDir)) return null;
  const safeTo = to.replace(/[^a-zA-Z0-9@._-]/g, "_");
  const files = fs
    .readdirSync(outboxDir)
    .filter((f) => f.endsWith(`-${safeTo}.eml`))
    .sort();
  const last = files.at(-1);
  return last ? fs.readFileSync(path.join(outboxDir, last), "utf8") : null;
}
