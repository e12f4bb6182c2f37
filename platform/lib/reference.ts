/** The parts of an OpenAPI document the reference reads (any of them may be missing). */
interface Node {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Node>;
  required?: string[];
  items?: Node;
  anyOf?: Node[];
  enum?: unknown[];
  description?: string;
  content?: Record<string, { schema?: Node }>;
}
interface Operation {
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: Node }[];
  requestBody?: { content?: Record<string, { schema?: Node }> };
  responses?: Record<string, Node>;
}
interface Doc {
  info?: { title?: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
  components?: { responses?: Record<string, Node> };
}

/** A readable, dependency-free HTML reference of the OpenAPI document (no CDN: this runs offline). */
export function renderApiReference(document: object): string {
  const doc = document as Doc;
  const esc = (s: unknown) =>
    String(s ?? "").replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
  const schemaText = (schema: Node | undefined, depth = 0): string => {
    if (!schema) return "";
    if (schema.$ref) return esc(schema.$ref.split("/").pop());
    if (depth > 3) return "…";
    if (schema.type === "object" && schema.properties) {
      const required = new Set(schema.required ?? []);
      return `<ul>${Object.entries(schema.properties)
        .map(
          ([k, v]: [string, Node]) =>
            `<li><code>${esc(k)}</code>${required.has(k) ? " <em>required</em>" : ""}: ${esc(v.type ?? (v.anyOf ? "one of" : v.$ref ? "" : ""))} ${schemaText(v.type === "object" || v.$ref ? v : v.items, depth + 1)} ${v.description ? `– ${esc(v.description)}` : ""}</li>`,
        )
        .join("")}</ul>`;
    }
    if (schema.type === "array") return `array of ${schemaText(schema.items, depth + 1)}`;
    if (schema.enum) return esc(schema.enum.join(" | "));
    return esc(schema.type ?? "");
  };
  const ops: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    for (const [method, op] of Object.entries(item)) {
      const params = (op.parameters ?? [])
        .map((p) => `<li><code>${esc(p.name)}</code> (${esc(p.in)}${p.required ? ", required" : ""}) ${esc(p.schema?.type)}</li>`)
        .join("");
      const body = op.requestBody?.content?.["application/json"]?.schema;
      const responses = Object.entries(op.responses ?? {})
        .map(([code, r]): [string, Node] => [code, r.$ref ? (doc.components?.responses?.[r.$ref.split("/").pop()!] ?? {}) : r])
        .map(([code, r]) => `<li><strong>${esc(code)}</strong> ${esc(r.description)} ${schemaText(r.content?.["application/json"]?.schema)}</li>`)
        .join("");
      ops.push(`<section id="${esc(method + path)}"><h2><span class="m">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h2>
${op.summary ? `<p>${esc(op.summary)}</p>` : ""}${op.description ? `<p>${esc(op.description)}</p>` : ""}
${params ? `<h3>Parameters</h3><ul>${params}</ul>` : ""}${body ? `<h3>Body</h3>${schemaText(body)}` : ""}<h3>Responses</h3><ul>${responses}</ul></section>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info?.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2937}section{border-top:1px solid #ddd;padding:.5rem 0}.m{background:#1e3a8a;color:#fff;padding:0 .4rem;border-radius:.25rem;font-size:.85em}code{font-size:.95em}h2{font-size:1.1rem}h3{font-size:.95rem;margin:.5rem 0 0}</style></head>
<body><main><h1>${esc(doc.info?.title)}</h1><p>${esc(doc.info?.description)}</p><p><a href="openapi.json">openapi.json</a></p>${ops.join("\n")}</main></body></html>`;
}
