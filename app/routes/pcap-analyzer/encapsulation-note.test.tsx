import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PcapMirrorSession } from "../../../platform/contract/pcap.shapes.ts";
import { EncapsulationNote } from "./mirror.tsx";

const session = (vni: number, outer_a: string): PcapMirrorSession => ({
  name: `geneve:${vni}@${outer_a},192.0.2.9`,
  encapsulation: "geneve",
  vni,
  outer_a,
  outer_b: "192.0.2.9",
  packets: 10,
  sessions: 1,
});

describe("the encapsulation note", () => {
  it("names the VNIs in numeric order once each, the sessions in their order of appearance", () => {
    const html = renderToStaticMarkup(
      <EncapsulationNote
        encapsulation={{
          encapsulations: ["geneve"],
          mirror_sessions: [session(200, "192.0.2.1"), session(100, "192.0.2.2"), session(16777215, "192.0.2.3"), session(0, "2001:db8::1"), session(100, "192.0.2.4")],
        }}
        decodeAs={[]}
      />,
    );
    const text = html.replace(/<[^>]+>/g, "");
    expect(text).toContain("5 mirror sessions (VNIs 0, 100, 200, 16777215)");
    expect(text.indexOf("GENEVE VNI 200 between")).toBeLessThan(text.indexOf("GENEVE VNI 100 between"));
  });
});
