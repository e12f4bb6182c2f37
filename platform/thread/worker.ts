import { parentPort } from "node:worker_threads";
import { getPlatform } from "../index.ts";
import { packBody, type AnswerMessage, type HostMessage, type WorkerMessage } from "./protocol.ts";
import { observe } from "../../server/observe.mjs";

/*
 * The platform thread (see host.ts): the whole platform — database, domain logic, mail, the PCAP
 * queue — runs here, so its CPU work never delays the console's rendering on the main thread.
 * Each call message becomes a Request for the platform's fetch handler; its Response goes back.
 */

const port = parentPort;
if (!port) throw new Error("platform/thread/worker.ts must run in a worker thread");

const post = (message: WorkerMessage, transfer: Transferable[] = []) => port.postMessage(message, transfer as never);
const inFlight = new Map<number, AbortController>();

async function answer(message: Extract<HostMessage, { kind: "call" }>) {
  const controller = new AbortController();
  inFlight.set(message.id, controller);
  try {
    const platform = await getPlatform();
    const init: RequestInit & { duplex?: "half" } = {
      method: message.method,
      headers: message.headers,
      signal: controller.signal,
    };
    if (message.body) {
      init.body = message.body as BodyInit;
      if (!(message.body instanceof ArrayBuffer)) init.duplex = "half";
    }
    const response = await platform.fetch(new Request(message.url, init));
    const transfer: Transferable[] = [];
    const body = await packBody(response.body, response.headers, () => response.arrayBuffer(), transfer);
    const reply: AnswerMessage = {
      kind: "answer",
      id: message.id,
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers],
      body,
    };
    post(reply, transfer);
  } catch (error) {
    post({ kind: "fail", id: message.id, message: (error as Error)?.message ?? String(error) });
  } finally {
    inFlight.delete(message.id);
  }
}

async function answerText(message: Extract<HostMessage, { kind: "text-call" }>) {
  try {
    const platform = await getPlatform();
    const response = await platform.fetch(
      new Request(message.url, { method: message.method, headers: message.headers, body: message.body ?? undefined }),
    );
    const text = await response.text();
    post({ kind: "text-answer", id: message.id, status: response.status, headers: [...response.headers], text });
  } catch (error) {
    post({ kind: "fail", id: message.id, message: (error as Error)?.message ?? String(error) });
  }
}

port.on("message", (message: HostMessage) => {
  if (message.kind === "call") void answer(message);
  else if (message.kind === "text-call") void answerText(message);
  else if (message.kind === "abort") inFlight.get(message.id)?.abort();
  else if (message.kind === "close") void closePlatform();
  else if (message.kind === "metrics") {
    const id = message.id;
    observe("platform")
      .collectForParent()
      .then(
        (scopeMetrics) => post({ kind: "metrics-answer", id, scopeMetrics }),
        () => post({ kind: "metrics-answer", id, scopeMetrics: [] }),
      );
  }
});

async function closePlatform() {
  try {
    await (await getPlatform()).close();
  } catch (error) {
    observe("platform").logger.error({ err: error }, "close failed");
  }
  post({ kind: "closed" });
  port!.close();
}

getPlatform().then(
  () => post({ kind: "ready" }),
  (error: Error) => post({ kind: "start-failed", message: error?.stack ?? String(error) }),
);

