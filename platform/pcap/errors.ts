/** Why a capture file could not be read (or could only be read in part). */
export type PcapErrorKind =
  | "empty" // 0-byte file
  | "not-a-capture" // unknown magic number
  | "truncated" // the file ends in the middle of a header, record or block
  | "bad-length" // a length field that cannot be right (absurd, too small, mismatched)
  | "bad-format"; // anything else that breaks the format rules

/**
 * A capture file that is not a valid pcap/pcapng file, or is damaged.
 * `offset` is the byte position in the file where the problem was found.
 */
export class PcapFormatError extends Error {
  readonly offset: number;
  readonly kind: PcapErrorKind;

  constructor(kind: PcapErrorKind, message: string, offset: number) {
    super(message);
    this.name = "PcapFormatError";
    this.kind = kind;
    this.offset = offset;
  }
}

export function isPcapFormatError(e: unknown): e is PcapFormatError {
  return e instanceof Error && e.name === "PcapFormatError" && typeof (e as PcapFormatError).offset === "number";
}
