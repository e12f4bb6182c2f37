/**
 * The analysis worker thread: receives { id, path, options } messages, analyses the
 * file and answers { id, ok: true, result } or { id, ok: false, error }. Started by
 * queue.ts through worker-entry.mjs.
 */
import { parentPort } from "node:worker_threads";
import { analyzeFile, type AnalyzeOptions } from "./analyzer.ts";
import { isPcapFormatError } from "./errors.ts";

export interface WorkerRequest {
  id: number;
  path: string;
  options: AnalyzeOptions;
}

export type WorkerResponse =
  | { id: number; ok: true; result: Awaited<ReturnType<typeof analyzeFile>> }
  | { id: number; ok: false; error: { name: string; message: string; kind?: string; offset?: number } };

const port = parentPort;
if (port) {
  port.on("message", async (req: WorkerRequest) => {
    let res: WorkerResponse;
    try {
      res = { id: req.id, ok: true, result: await analyzeFile(req.path, req.options) };
    } catch (e) {
      res = isPcapFormatError(e)
        ? { id: req.id, ok: false, error: { name: e.name, message: e.message, kind: e.kind, offset: e.offset } }
        : { id: req.id, ok: false, error: { name: e instanceof Error ? e.name : "Error", message: e instanceof Error ? e.message : String(e) } };
    }
    port.postMessage(res);
  });
  port.postMessage({ ready: true });
}
