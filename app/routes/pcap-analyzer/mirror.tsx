import { Form, useLocation } from "react-router";
import {
  formatCount,
  formatPcapDecodeAs,
  parsePcapDecodeAs,
  pcapEncapsulationLabel,
  PCAP_ENCAPSULATIONS,
  PCAP_MAX_VNI,
  type PcapEncapsulationSummary,
} from "../../lib/pcap.ts";
import { keptParams } from "../../lib/url.ts";

/*
 * Mirrored cloud traffic (issue 59; docs/decisions/2026-12-03-pcap-mirror-sessions.md): the
 * decode-as fields of the upload (a mirror on a port other than 4789 / 6081, as Wireshark's
 * "Decode As"), the note saying what the capture held, and the filter of the sessions by VNI.
 * All of it is URL or form state: it works without JavaScript.
 */

export const DECODE_AS_PORT = "decode_as_port";
export const DECODE_AS_ENCAPSULATION = "decode_as_encapsulation";

export const decodeAsMessages = {
  port: "Enter a UDP port from 1 to 65535.",
  encapsulation: "Choose the encapsulation carried on that port.",
  portMissing: "Enter the UDP port that carries this encapsulation.",
} as const;

/**
 * The upload form's decode-as fields as a rule ("udp.port==8472,vxlan"): null when both are
 * empty, an error sentence when only one is given or the port is not one.
 */
export function decodeAsFromFields(
  port: unknown,
  encapsulation: unknown,
): { ok: true; rule: string | null } | { ok: false; message: string } {
  const p = typeof port === "string" ? port.trim() : "";
  const e = typeof encapsulation === "string" ? encapsulation.trim() : "";
  if (!p && !e) return { ok: true, rule: null };
  if (!e) return { ok: false, message: decodeAsMessages.encapsulation };
  if (!p) return { ok: false, message: decodeAsMessages.portMissing };
  if (!/^[0-9]{1,5}$/.test(p))
    return { ok: false, message: decodeAsMessages.port };
  const rule = parsePcapDecodeAs(`udp.port==${Number(p)},${e}`);
  if (!rule)
    return {
      ok: false,
      message: (PCAP_ENCAPSULATIONS as readonly string[]).includes(e)
        ? decodeAsMessages.port
        : decodeAsMessages.encapsulation,
    };
  return { ok: true, rule: formatPcapDecodeAs(rule) };
}

/** `?decode_as=` of the page: a valid rule or nothing (no free text from the URL goes to the platform). */
export function decodeAsFromUrl(value: string | null): string | null {
  const rule = value ? parsePcapDecodeAs(value) : null;
  return rule ? formatPcapDecodeAs(rule) : null;
}

/** `?vni=` of the page: a VNI (0–16777215) or nothing. */
export function vniFromUrl(value: string | null): number | null {
  if (!value || !/^[0-9]{1,8}$/.test(value)) return null;
  const n = Number(value);
  return n <= PCAP_MAX_VNI ? n : null;
}

/** The optional decode-as fields of the upload form (before the file: with JS, choosing the file starts the upload). */
export function DecodeAsFields({
  error,
  disabled,
}: {
  error: string | null;
  disabled: boolean;
}) {
  const describedBy = [
    "pcap-decode-as-hint",
    error ? "pcap-decode-as-error" : null,
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <details
      className="rounded-box border-base-300 border px-4 py-2"
      open={Boolean(error)}
      data-testid="pcap-decode-as"
    >
      <summary className="cursor-pointer font-medium">
        Mirrored traffic on another port (decode as)
      </summary>
      <fieldset
        className="flex flex-col gap-2 py-2"
        aria-describedby={describedBy}
      >
        <legend className="sr-only">Decode as</legend>
        <p id="pcap-decode-as-hint" className="text-base-content/80 text-sm">
          VXLAN on UDP 4789 and GENEVE on UDP 6081 are found by themselves. A
          mirror sending to another UDP port: give the port and its
          encapsulation, as Wireshark&apos;s Decode As.
        </p>
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium">UDP port</span>
            <input
              type="number"
              name={DECODE_AS_PORT}
              id="pcap-decode-as-port"
              min={1}
              max={65535}
              step={1}
              inputMode="numeric"
              className={`input input-sm w-32 ${error ? "input-error" : ""}`}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "pcap-decode-as-error" : undefined}
              disabled={disabled}
            />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium">Encapsulation</span>
            <select
              name={DECODE_AS_ENCAPSULATION}
              id="pcap-decode-as-encapsulation"
              className={`select select-sm w-40 ${error ? "select-error" : ""}`}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "pcap-decode-as-error" : undefined}
              defaultValue=""
              disabled={disabled}
            >
              <option value="">None</option>
              {PCAP_ENCAPSULATIONS.map((e) => (
                <option key={e} value={e}>
                  {pcapEncapsulationLabel(e)}
                </option>
              ))}
            </select>
          </label>
        </div>
        {error ? (
          <p
            id="pcap-decode-as-error"
            role="alert"
            className="text-error text-sm font-medium"
          >
            {error}
          </p>
        ) : null}
      </fieldset>
    </details>
  );
}

const plural = (n: number, one: string, many: string) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

/** What an encapsulated capture held: the encapsulations, its mirror sessions (VNIs), the decode-as rules used. */
export function EncapsulationNote({
  encapsulation,
  decodeAs,
}: {
  encapsulation: PcapEncapsulationSummary | null;
  decodeAs: string[];
}) {
  if (!encapsulation) {
    return decodeAs.length ? (
      <p
        className="text-base-content/80 text-sm"
        data-testid="pcap-encapsulation"
      >
        No encapsulated traffic found (decoded as {decodeAs.join(", ")}).
      </p>
    ) : null;
  }
  const names = encapsulation.encapsulations
    .map(pcapEncapsulationLabel)
    .join(" and ");
  // In numeric order (the sessions below keep their order of appearance): "VNIs 0, 100, 16777215".
  const vnis = [...new Set(encapsulation.mirror_sessions.map((m) => m.vni))].sort((a, b) => a - b);
  return (
    <div className="text-sm" data-testid="pcap-encapsulation">
      <p>
        <span className="font-semibold">
          Mirrored traffic, encapsulated in {names}
        </span>
        :{" "}
        {plural(
          encapsulation.mirror_sessions.length,
          "mirror session",
          "mirror sessions",
        )}{" "}
        ({vnis.length === 1 ? "VNI" : "VNIs"} {vnis.join(", ")})
        {decodeAs.length ? `, decoded as ${decodeAs.join(", ")}` : ""}. Each
        session below is one inner connection as seen through one mirror
        session.
      </p>
      <ul className="text-base-content/80 list-disc pl-5">
        {encapsulation.mirror_sessions.map((m) => (
          <li key={m.name} className="break-words">
            {pcapEncapsulationLabel(m.encapsulation)} VNI {m.vni} between{" "}
            {m.outer_a} and {m.outer_b}:{" "}
            {plural(m.sessions, "session", "sessions")},{" "}
            {plural(m.packets, "packet", "packets")}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The sessions of one VNI (a GET form: `?vni=`, without JavaScript too). */
export function VniFilter({
  encapsulation,
  vni,
}: {
  encapsulation: PcapEncapsulationSummary;
  vni: number | null;
}) {
  const location = useLocation();
  const byVni = new Map<number, { labels: Set<string>; sessions: number }>();
  for (const m of encapsulation.mirror_sessions) {
    const entry = byVni.get(m.vni) ?? {
      labels: new Set<string>(),
      sessions: 0,
    };
    entry.labels.add(pcapEncapsulationLabel(m.encapsulation));
    entry.sessions += m.sessions;
    byVni.set(m.vni, entry);
  }
  return (
    <Form
      method="get"
      className="flex flex-wrap items-end gap-2"
      preventScrollReset
      data-testid="pcap-vni-filter"
    >
      {keptParams(location.search, [
        "vni",
        "page",
        "session",
        "dialog",
        "zoom",
      ]).map(([k, v], i) => (
        <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
      ))}
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">Mirror session (VNI)</span>
        <select
          name="vni"
          className="select select-sm w-64 max-w-full"
          defaultValue={vni === null ? "" : String(vni)}
          key={vni ?? "all"}
        >
          <option value="">All mirror sessions</option>
          {[...byVni].map(([n, e]) => (
            <option key={n} value={n}>
              VNI {n} ({[...e.labels].join(", ")},{" "}
              {plural(e.sessions, "session", "sessions")})
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="btn btn-sm">
        Filter
      </button>
    </Form>
  );
}
