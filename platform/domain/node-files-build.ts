import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";
import tar from "tar-stream";
import { registrationTokenHours } from "../contract/nodes.ts";
import { emptyStreamOptimizedVmdk } from "./node-files-vmdk.ts";

/*
 * The files a node's form factor produces (issue #28), built from what the platform knows:
 * - the OVA: a USTAR tar whose first member is the OVF descriptor, then the manifest, then the disk;
 * - the cloud-init user data (#cloud-config) for an AWS AMI;
 * - the WireGuard configuration of a hosted node, with a fresh X25519 key pair.
 * Pure functions: the domain (node-files.ts) stores and serves what they build.
 */

export interface NodeFileSubject {
  id: string;
  name: string;
  kind: "service_node" | "endpoint_node";
}

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
const sha256Hex = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");
/** A file-name-safe form of the node's name. */
export const fileStem = (node: NodeFileSubject) => `${node.name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "node"}-${node.id}`;

/** The OVF 1.0 descriptor: one virtual system named after the node, its ProductSection the registration properties. */
export function ovfDescriptor(node: NodeFileSubject, diskFile: string, disk: { size: number; capacityBytes: number }, platformUrl: string, token: string): string {
  const kindLabel = node.kind === "service_node" ? "Service Node" : "Endpoint Node";
  return `<?xml version="1.0" encoding="UTF-8"?>
<Envelope xmlns="http://schemas.dmtf.org/ovf/envelope/1" xmlns:ovf="http://schemas.dmtf.org/ovf/envelope/1" xmlns:rasd="http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_ResourceAllocationSettingData" xmlns:vssd="http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_VirtualSystemSettingData" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <References>
    <File ovf:id="file1" ovf:href="${xml(diskFile)}" ovf:size="${disk.size}"/>
  </References>
  <DiskSection>
    <Info>Virtual disk information</Info>
    <Disk ovf:diskId="vmdisk1" ovf:fileRef="file1" ovf:capacity="${disk.capacityBytes}" ovf:format="http://www.vmware.com/interfaces/specifications/vmdk.html#streamOptimized"/>
  </DiskSection>
  <NetworkSection>
    <Info>The networks the node uses</Info>
    <Network ovf:name="WAN"><Description>The network with the route to the PoP</Description></Network>
  </NetworkSection>
  <VirtualSystem ovf:id="${xml(node.id)}">
    <Info>Linkwise ${kindLabel}</Info>
    <Name>${xml(node.name)}</Name>
    <ProductSection ovf:required="true">
      <Info>Registration of the node with the platform</Info>
      <Product>Linkwise ${kindLabel}</Product>
      <Vendor>Linkwise</Vendor>
      <Property ovf:key="node_id" ovf:type="string" ovf:userConfigurable="false" ovf:value="${xml(node.id)}"><Label>Node id</Label></Property>
      <Property ovf:key="node_kind" ovf:type="string" ovf:userConfigurable="false" ovf:value="${node.kind}"><Label>Node kind</Label></Property>
      <Property ovf:key="platform_url" ovf:type="string" ovf:userConfigurable="true" ovf:value="${xml(platformUrl)}"><Label>Platform address</Label></Property>
      <Property ovf:key="registration_token" ovf:type="string" ovf:password="true" ovf:userConfigurable="true" ovf:value="${xml(token)}"><Label>Registration token</Label><Description>Single use; expires ${registrationTokenHours} h after the OVA was prepared.</Description></Property>
    </ProductSection>
    <OperatingSystemSection ovf:id="101">
      <Info>The guest operating system</Info>
      <Description>Other 3.x or later Linux (64-bit)</Description>
    </OperatingSystemSection>
    <VirtualHardwareSection>
      <Info>2 vCPU, 4 GB memory, one disk, one NIC</Info>
      <System><vssd:ElementName>Virtual Hardware Family</vssd:ElementName><vssd:InstanceID>0</vssd:InstanceID><vssd:VirtualSystemType>vmx-13</vssd:VirtualSystemType></System>
      <Item><rasd:AllocationUnits>hertz * 10^6</rasd:AllocationUnits><rasd:ElementName>2 virtual CPUs</rasd:ElementName><rasd:InstanceID>1</rasd:InstanceID><rasd:ResourceType>3</rasd:ResourceType><rasd:VirtualQuantity>2</rasd:VirtualQuantity></Item>
      <Item><rasd:AllocationUnits>byte * 2^20</rasd:AllocationUnits><rasd:ElementName>4096 MB of memory</rasd:ElementName><rasd:InstanceID>2</rasd:InstanceID><rasd:ResourceType>4</rasd:ResourceType><rasd:VirtualQuantity>4096</rasd:VirtualQuantity></Item>
      <Item><rasd:Address>0</rasd:Address><rasd:ElementName>SCSI controller 0</rasd:ElementName><rasd:InstanceID>3</rasd:InstanceID><rasd:ResourceSubType>lsilogic</rasd:ResourceSubType><rasd:ResourceType>6</rasd:ResourceType></Item>
      <Item><rasd:AddressOnParent>0</rasd:AddressOnParent><rasd:ElementName>Hard disk 1</rasd:ElementName><rasd:HostResource>ovf:/disk/vmdisk1</rasd:HostResource><rasd:InstanceID>4</rasd:InstanceID><rasd:Parent>3</rasd:Parent><rasd:ResourceType>17</rasd:ResourceType></Item>
      <Item><rasd:AddressOnParent>7</rasd:AddressOnParent><rasd:AutomaticAllocation>true</rasd:AutomaticAllocation><rasd:Connection>WAN</rasd:Connection><rasd:ElementName>Network adapter 1</rasd:ElementName><rasd:InstanceID>5</rasd:InstanceID><rasd:ResourceSubType>VmxNet3</rasd:ResourceSubType><rasd:ResourceType>10</rasd:ResourceType></Item>
    </VirtualHardwareSection>
  </VirtualSystem>
</Envelope>
`;
}

/** The OVA: descriptor, manifest (SHA256 of every other member), disk, in that order (OVF 1.0 §5.3). */
export async function buildOva(node: NodeFileSubject, platformUrl: string, token: string, now = new Date()): Promise<{ fileName: string; data: Buffer }> {
  const stem = fileStem(node);
  const diskName = `${stem}-disk1.vmdk`;
  const disk = emptyStreamOptimizedVmdk(diskName);
  const ovf = Buffer.from(ovfDescriptor(node, diskName, { size: disk.data.length, capacityBytes: disk.capacityBytes }, platformUrl, token), "utf8");
  const manifest = Buffer.from(`SHA256(${stem}.ovf)= ${sha256Hex(ovf)}\nSHA256(${diskName})= ${sha256Hex(disk.data)}\n`, "utf8");
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => {
    if (Buffer.isBuffer(c)) chunks.push(c);
  });
  const done = new Promise<void>((resolve, reject) => {
    pack.on("end", () => resolve());
    pack.on("error", reject);
  });
  const entry = (name: string, data: Buffer) =>
    new Promise<void>((resolve, reject) => pack.entry({ name, size: data.length, mode: 0o644, mtime: now, uname: "linkwise", gname: "linkwise" }, data, (err) => (err ? reject(err) : resolve())));
  await entry(`${stem}.ovf`, ovf);
  await entry(`${stem}.mf`, manifest);
  await entry(diskName, disk.data);
  pack.finalize();
  await done;
  return { fileName: `${stem}.ova`, data: Buffer.concat(chunks) };
}

const yamlString = (s: string) => JSON.stringify(s); // a JSON string is a valid YAML double-quoted scalar

/** AWS AMI user data: the node's id and registration token in a 0600 file; runcmd enables and starts the agent. */
export function cloudInitData(node: NodeFileSubject, platformUrl: string, token: string, expiresAt: Date): string {
  const env = [`NODE_ID=${node.id}`, `NODE_KIND=${node.kind}`, `PLATFORM_URL=${platformUrl}`, `REGISTRATION_TOKEN=${token}`, `TOKEN_EXPIRES_AT=${expiresAt.toISOString()}`].join("\n");
  return [
    "#cloud-config",
    `# Linkwise ${node.kind === "service_node" ? "Service Node" : "Endpoint Node"} ${node.name} (${node.id}).`,
    `# The registration token is single use and expires at ${expiresAt.toISOString()}.`,
    "write_files:",
    "  - path: /etc/linkwise/node.env",
    "    owner: root:root",
    '    permissions: "0600"',
    "    content: |",
    ...env.split("\n").map((l) => `      ${l}`),
    "runcmd:",
    "  - [systemctl, daemon-reload]",
    "  - [systemctl, enable, --now, linkwise-node-agent.service]",
    `  - [sh, -c, ${yamlString(`echo "registering ${node.id} with ${platformUrl}" | systemd-cat -t linkwise-node-agent`)}]`,
    "",
  ].join("\n");
}

const b64 = (b64url: string) => Buffer.from(b64url, "base64url").toString("base64");

/** A fresh X25519 key pair as WireGuard writes keys (base64 of the 32 raw bytes, 44 characters). */
export function wireguardKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync("x25519");
  const priv = privateKey.export({ format: "jwk" }).d;
  const pub = publicKey.export({ format: "jwk" }).x;
  if (!priv || !pub) throw new Error("X25519 key export failed");
  return { privateKey: b64(priv), publicKey: b64(pub) };
}

/** The public key of a base64 X25519 private key (what `wg pubkey` prints). */
export function wireguardPublicKey(privateKeyBase64: string): string {
  const raw = Buffer.from(privateKeyBase64, "base64");
  const der = Buffer.concat([Buffer.from("302e020100300506032b656e04220420", "hex"), raw]);
  const x = createPublicKey(createPrivateKey({ key: der, format: "der", type: "pkcs8" })).export({ format: "jwk" }).x;
  if (!x) throw new Error("X25519 key export failed");
  return b64(x);
}

/** The PoP's tunnel key for a region: fixed per region (derived from its name), so every node of the region has the same peer. */
export function popPublicKey(region: string): string {
  return wireguardPublicKey(createHash("sha256").update(`linkwise-pop-wireguard:${region}`).digest("base64"));
}

export interface HostedSettings {
  hosted_region: string;
  hosted_vpc_cidr: string;
  hosted_peer_ip: string;
  hosted_peer_prefix: number;
}

/** The WireGuard configuration of a hosted node (wg-quick format). */
export function wireguardConfig(node: NodeFileSubject, hosted: HostedSettings, privateKey: string, now = new Date()): string {
  return [
    `# Linkwise hosted ${node.kind === "service_node" ? "Service Node" : "Endpoint Node"} ${node.name} (${node.id}), ${hosted.hosted_region}.`,
    `# Generated ${now.toISOString()}. Keep this file secret: it holds the node's private key. The platform keeps it encrypted, for writers of the account to download again; generate a new configuration to replace the key.`,
    "[Interface]",
    `PrivateKey = ${privateKey}`,
    `Address = ${hosted.hosted_peer_ip}/${hosted.hosted_peer_prefix}`,
    "",
    "[Peer]",
    `PublicKey = ${popPublicKey(hosted.hosted_region)}`,
    `AllowedIPs = ${hosted.hosted_vpc_cidr}`,
    `Endpoint = wg.${hosted.hosted_region}.pop.example.net:51820`,
    "PersistentKeepalive = 25",
    "",
  ].join("\n");
}
