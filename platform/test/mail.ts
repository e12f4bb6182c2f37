import { createTransport, type Mailer } from "../mail/mailer.ts";

/**
 * The tests of other areas read a call's e-mail from the outbox as soon as the call answers: this
 * mailer writes it there at once, through the real outbox transport, instead of through the job
 * queue. The queue itself (in the caller's transaction, retries, refusals, a dead instance) is
 * tested in mail/mail-queue.test.ts and jobs/.
 */
export function outboxMailer(outboxDir: string): Mailer {
  const transport = createTransport({ outboxDir, from: "test@linkwise.test", log: () => {} });
  return { send: (m) => transport.deliver(m) };
}
