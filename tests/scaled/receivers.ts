import http from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { Webhook } from "standardwebhooks";

/*
 * The real servers the platform instances send to: an SMTP server (smtp-server) and an HTTP
 * receiver of operations webhooks that verifies each delivery's Standard Webhooks signature with
 * the `standardwebhooks` package. Each can be told to hold the next message it is sent (take it and
 * never answer), so that the instance sending it is caught holding it: the test then knows, from the
 * connection's port, which instance that is (processes.ts holderOf), and kills it.
 */

const decodeQuotedPrintable = (s: string) =>
  Buffer.from(s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8");

/** A connection held open without an answer: the sender's port, and when it came. */
export interface Held {
  remotePort: number;
  at: number;
  /** The mail's recipients, or the webhook's webhook-id. */
  what: string;
}

export interface Mail {
  to: string[];
  text: string;
  at: number;
}

export async function startSmtp() {
  /** Messages accepted (answered 250): what "reached the SMTP server". */
  const accepted: Mail[] = [];
  /** Messages taken but never answered (their sender was killed holding them). */
  const held: Held[] = [];
  const state = { holdNext: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        if (state.holdNext) {
          // Never answered: the message is not taken until a 250, which never comes.
          state.holdNext = false;
          held.push({ remotePort: session.remotePort, at: Date.now(), what: to.join(",") });
          return;
        }
        accepted.push({ to, text: decodeQuotedPrintable(Buffer.concat(chunks).toString("utf8")), at: Date.now() });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    held,
    state,
    /** The messages accepted for `to`, oldest first. */
    to: (to: string) => accepted.filter((m) => m.to.includes(to)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Delivery {
  id: string;
  /** The signature verified with the account's secret (standardwebhooks), or why not. */
  verified: true | string;
  type: string | null;
  /** The status answered (0: held, never answered). */
  answered: number;
  at: number;
}

export async function startWebhookReceiver() {
  const deliveries: Delivery[] = [];
  const held: Held[] = [];
  const state = { holdNext: false, secret: "" };
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = req.headers as Record<string, string>;
      let verified: true | string = true;
      let type: string | null = null;
      try {
        type = (new Webhook(state.secret).verify(body, headers) as { type?: string }).type ?? null;
      } catch (error) {
        verified = (error as Error).message;
      }
      const delivery: Delivery = { id: headers["webhook-id"] ?? "", verified, type, answered: 0, at: Date.now() };
      deliveries.push(delivery);
      if (state.holdNext) {
        state.holdNext = false;
        held.push({ remotePort: req.socket.remotePort ?? 0, at: Date.now(), what: delivery.id });
        open.add(res);
        return;
      }
      delivery.answered = verified === true ? 204 : 400;
      res.writeHead(delivery.answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/linkwise-hook`,
    deliveries,
    held,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
