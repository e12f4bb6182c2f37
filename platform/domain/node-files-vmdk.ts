/*
 * The OVA's disk: an empty streamOptimized VMDK (VMware Virtual Disk Format 5.0, "Stream-Optimized
 * Compressed Sparse Extents"), the format OVF packages carry. It holds no grains: every sector
 * reads as zero, so it is tiny (133 sectors) whatever its capacity. The node's software is fetched
 * when it registers; the disk only gives the appliance its boot volume's shape.
 */

const SECTOR = 512;
const GRAIN = 128; // sectors
const DESCRIPTOR_SECTORS = 20;
const OVERHEAD = 128; // sectors before the first grain (none here)

function header(capacity: number, gdOffset: bigint): Buffer {
  const h = Buffer.alloc(SECTOR);
  h.write("KDMV", 0, "latin1"); // magic 0x564d444b, little-endian
  h.writeUInt32LE(3, 4); // version 3: streamOptimized
  h.writeUInt32LE(0x00030001, 8); // valid new-line test | compressed grains | markers
  h.writeBigUInt64LE(BigInt(capacity), 12);
  h.writeBigUInt64LE(BigInt(GRAIN), 20);
  h.writeBigUInt64LE(1n, 28); // descriptor at sector 1
  h.writeBigUInt64LE(BigInt(DESCRIPTOR_SECTORS), 36);
  h.writeUInt32LE(512, 44); // grain table entries per grain table
  h.writeBigUInt64LE(0n, 48); // no redundant grain directory
  h.writeBigUInt64LE(gdOffset, 56);
  h.writeBigUInt64LE(BigInt(OVERHEAD), 64);
  h.writeUInt8(0, 72); // clean shutdown
  h.write("\n \r\n", 73, "latin1");
  h.writeUInt16LE(1, 77); // deflate
  return h;
}

function marker(value: number, type: number): Buffer {
  const m = Buffer.alloc(SECTOR);
  m.writeBigUInt64LE(BigInt(value), 0);
  m.writeUInt32LE(0, 8);
  m.writeUInt32LE(type, 12);
  return m;
}

/** An empty disk of `capacityMiB` MiB as a streamOptimized VMDK, and its capacity in bytes. */
export function emptyStreamOptimizedVmdk(fileName: string, capacityMiB = 1024): { data: Buffer; capacityBytes: number } {
  const capacity = capacityMiB * 2048; // sectors
  const descriptor = [
    "# Disk DescriptorFile",
    "version=1",
    "CID=fffffffe",
    "parentCID=ffffffff",
    'createType="streamOptimized"',
    "",
    "# Extent description",
    `RW ${capacity} SPARSE "${fileName}"`,
    "",
    "# The Disk Data Base",
    "#DDB",
    "",
    'ddb.adapterType = "lsilogic"',
    `ddb.geometry.cylinders = "${Math.ceil(capacity / (255 * 63))}"`,
    'ddb.geometry.heads = "255"',
    'ddb.geometry.sectors = "63"',
    'ddb.virtualHWVersion = "4"',
    "",
  ].join("\n");
  const desc = Buffer.alloc(DESCRIPTOR_SECTORS * SECTOR);
  desc.write(descriptor, 0, "latin1");
  const gdEntries = Math.ceil(capacity / GRAIN / 512);
  const gdSectors = Math.ceil((gdEntries * 4) / SECTOR);
  const gdAt = OVERHEAD + 1; // after its marker
  const parts = [
    header(capacity, 0xffffffffffffffffn), // the grain directory is at the end (footer)
    desc,
    Buffer.alloc((OVERHEAD - 1 - DESCRIPTOR_SECTORS) * SECTOR),
    marker(gdSectors, 2), // grain directory marker
    Buffer.alloc(gdSectors * SECTOR), // every entry 0: no grain table, every grain reads zero
    marker(1, 3), // footer marker
    header(capacity, BigInt(gdAt)),
    Buffer.alloc(SECTOR), // end-of-stream marker
  ];
  return { data: Buffer.concat(parts), capacityBytes: capacity * SECTOR };
}
