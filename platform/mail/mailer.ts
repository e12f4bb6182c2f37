import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Db, DbOrTx } from "../db/client.ts";
import { queues, type JobQueue } from "../jobs/queue.ts";
import { observe } from "../../server/observe.mjs";

const logMail = (line: string) => observe("platform").logger.info({ component: "mail" }, line);

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** `to` as a blind copy, with no To header (a scheduled report's recipients never see each other's addresses). */
  blind?: boolean;
  /** Files sent with it (a report's PDF and CSV), their bytes in base64. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  base64: string;
}

/** What nodemailer is given for a message: the address in To, or in Bcc; the attachments decoded from base64. */
const envelopeOf = (from: string, m: MailMessage) => ({
  from,
  ...(m.blind ? { bcc: m.to } : { to: m.to }),
  subject: m.subject,
  text: m.text,
  ...(m.attachments?.length ? { attachments: m.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.base64, encoding: "base64" })) } : {}),
});

export interface MailOptions {
  /** The caller's transaction: the message is enqueued in it, so it exists exactly when the change commits. */
  tx?: DbOrTx;
  /** The account it belongs to (shown on its Operations page when the server refuses it). */
  accountId?: string;
  /** After this the message is not sent any more (the code or link in it has expired). */
  expiresAt?: Date;
}

/**
 * Outgoing e-mail. `send` enqueues the message on the job queue (issue 63 item 6): it never talks
 * to the SMTP server itself, so a change and its e-mail commit together or not at all, and an SMTP
 * server that is down delays the message instead of failing the call.
 */
export interface Mailer {
  /** Enqueues the message; answers its job id when it went on the queue (a report's history links a refusal to it). */
  send(message: MailMessage, opts?: MailOptions): Promise<string | null | void>;
}

/** Where messages go: the SMTP server, or the outbox folder of the embedded default. */
export interface MailTransport {
  deliver(message: MailMessage): Promise<void>;
  close(): void;
}

export interface TransportOptions {
  smtpUrl?: string;
  outboxDir: string;
  from: string;
  log?: (line: string) => void;
}

/**
 * Real e-mail through nodemailer. With SMTP_URL it goes to that server; the embedded default
 * writes each message as an .eml file to `outboxDir` and logs one line, so a local user (and the
 * end-to-end tests) can read the code or link.
 */
export function createTransport(opts: TransportOptions): MailTransport {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async deliver(m) {
        await transport.sendMail(envelopeOf(opts.from, m));
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async deliver(m) {
      const info = await transport.sendMail(envelopeOf(opts.from, m));
      fs.mkdirSync(opts.outboxDir, { recursive: true });
      const safeTo = m.to.replace(/[^a-zA-Z0-9@._-]/g, "_");
      const file = path.join(opts.outboxDir, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}-${safeTo}.eml`);
      // Written aside, then renamed: the mail queue writes while readers (the outbox's users, the
      // end-to-end tests) may be looking, and a reader must never take a half-written message.
      fs.writeFileSync(`${file}.part`, info.message as Buffer);
      fs.renameSync(`${file}.part`, file);
      (opts.log ?? logMail)(`[mail] "${m.subject}" to ${m.to} written to ${file}`);
    },
    close: () => transport.close(),
  };
}

/** A message on the mail queue. */
export interface MailJob extends MailMessage {
  account_id?: string;
  expires_at?: string;
}

/** The mailer of the platform: each message a job on the `mail` queue. */
export function queueMailer(jobs: JobQueue): Mailer {
  return {
    async send(m, opts = {}) {
      const data: MailJob = { to: m.to, subject: m.subject, text: m.text };
      if (m.blind) data.blind = true;
      if (m.attachments?.length) data.attachments = m.attachments;
      if (opts.accountId) data.account_id = opts.accountId;
      if (opts.expiresAt) data.expires_at = opts.expiresAt.toISOString();
      return jobs.send(queues.mail.name, data, { tx: opts.tx });
    },
  };
}

/**
 * The SMTP server's answer is final (5xx: "550 No such user", a refused sender): sending it again
 * would be refused again. Everything else (4xx, a refused or dropped connection, a time-out) is
 * worth another try.
 */
export function isPermanentRejection(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

/** What the server answered, on one line (nodemailer's `response`, else the message). */
const answerOf = (error: unknown) => String((error as { response?: unknown }).response ?? (error as Error).message).replace(/\s+/g, " ").slice(0, 500);

/**
 * Takes the mail queue on this instance. Each job is one message: delivered, or, when the server
 * refuses it for good or its last try fails, recorded (mail_rejections, the operators' log) and
 * not tried again; any other failure throws, and the queue tries again later with backoff. A message waiting for its
 * retry holds no other: each is a job of its own.
 */
export async function workMailQueue(jobs: JobQueue, db: Db, transport: MailTransport, opts: { concurrency?: number; log?: (line: string) => void } = {}): Promise<void> {
  const log = opts.log ?? logMail;
  await jobs.work<MailJob>(
    queues.mail.name,
    async (job) => {
      const m = job.data;
      if (m.expires_at && Date.parse(m.expires_at) <= Date.now()) {
        log(`[mail] "${m.subject}" to ${m.to} not sent: what it carries expired at ${m.expires_at}`);
        return { expired: true };
      }
      try {
        await transport.deliver(m);
        return { sent: true };
      } catch (error) {
        // The last try the queue allows: a temporary answer becomes final here, recorded like a refusal
        // (a report's history then says the address did not receive it, instead of "e-mailed").
        const lastTry = job.retryCount >= job.retryLimit;
        if (!isPermanentRejection(error) && !lastTry) {
          log(`[mail] "${m.subject}" to ${m.to} not sent yet (try ${job.retryCount + 1}), will try again: ${answerOf(error)}`);
          throw error;
        }
        const answer = isPermanentRejection(error) ? answerOf(error) : `Not delivered after ${job.retryCount + 1} tries: ${answerOf(error)}`;
        observe("platform").logger.error(
          { component: "mail", to: m.to, subject: m.subject, answer, tries: job.retryCount + 1 },
          lastTry && !isPermanentRejection(error) ? "not delivered by its last try, not tried again" : "refused by the mail server for good, not tried again",
        );
        await db.execute(sql`insert into mail_rejections (job_id, account_id, recipient, subject, answer)
          values (${job.id}, ${m.account_id ?? null}, ${m.to}, ${m.subject}, ${answer})
          on conflict (job_id) do nothing`);
        return { rejected: answer };
      }
    },
    opts.concurrency ?? 2,
  );
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
