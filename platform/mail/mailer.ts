import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Real e-mail through nodemailer. With SMTP_URL it goes to that server; the embedded default
 * writes each message as an .eml file to `outboxDir` and logs one line, so a local user (and the
 * end-to-end tests) can read the code or link.
 */
export function createMailer(opts: { smtpUrl?: string; outboxDir: string; from: string; log?: (line: string) => void }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(m) {
        await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(m) {
      const info = await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text });
      fs.mkdirSync(opts.outboxDir, { recursive: true });
      const safeTo = m.to.replace(/[^a-zA-Z0-9@._-]/g, "_");
      const file = path.join(opts.outboxDir, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}-${safeTo}.eml`);
      fs.writeFileSync(file, info.message as Buffer);
      (opts.log ?? console.log)(`[mail] "${m.subject}" to ${m.to} written to ${file}`);
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
