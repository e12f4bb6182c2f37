/**
 * Application identification for a conversation: a name from the well-known server
 * port, and the server name the client asked for (TLS ClientHello SNI or HTTP Host),
 * read from the first data segment(s) only, without reassembly.
 */

const TCP_PORTS: Record<number, string> = {
  20: "ftp-data",
  21: "ftp",
  22: "ssh",
  23: "telnet",
  25: "smtp",
  43: "whois",
  53: "dns",
  80: "http",
  88: "kerberos",
  110: "pop3",
  111: "sunrpc",
  119: "nntp",
  135: "msrpc",
  139: "netbios-ssn",
  143: "imap",
  179: "bgp",
  389: "ldap",
  443: "https",
  445: "smb",
  465: "smtps",
  514: "syslog",
  515: "printer",
  548: "afp",
  554: "rtsp",
  587: "submission",
  631: "ipp",
  636: "ldaps",
  853: "dns-over-tls",
  873: "rsync",
  989: "ftps-data",
  990: "ftps",
  993: "imaps",
  995: "pop3s",
  1080: "socks",
  1433: "mssql",
  1521: "oracle",
  1723: "pptp",
  1883: "mqtt",
  2049: "nfs",
  3128: "http-proxy",
  3268: "ldap-gc",
  3306: "mysql",
  3389: "rdp",
  5060: "sip",
  5061: "sips",
  5222: "xmpp",
  5432: "postgresql",
  5671: "amqps",
  5672: "amqp",
  5900: "vnc",
  5938: "teamviewer",
  6000: "x11",
  6379: "redis",
  6443: "kubernetes-api",
  6633: "openflow",
  6653: "openflow",
  8080: "http-alt",
  8443: "https-alt",
  8883: "mqtts",
  9092: "kafka",
  9200: "elasticsearch",
  11211: "memcached",
  27017: "mongodb",
};

const UDP_PORTS: Record<number, string> = {
  53: "dns",
  67: "dhcp",
  68: "dhcp",
  69: "tftp",
  123: "ntp",
  137: "netbios-ns",
  138: "netbios-dgm",
  161: "snmp",
  162: "snmp-trap",
  389: "cldap",
  443: "quic",
  500: "isakmp",
  514: "syslog",
  520: "rip",
  546: "dhcpv6",
  547: "dhcpv6",
  1194: "openvpn",
  1812: "radius",
  1813: "radius-acct",
  1900: "ssdp",
  3478: "stun",
  3544: "teredo",
  4500: "ipsec-nat-t",
  4789: "vxlan",
  5060: "sip",
  5353: "mdns",
  5355: "llmnr",
  6081: "geneve",
  7000: "afs",
  7001: "afs",
  7002: "afs",
  7003: "afs",
  7004: "afs",
  7005: "afs",
  7006: "afs",
  7007: "afs",
  7008: "afs",
  7009: "afs",
  51820: "wireguard",
};

/**
 * A port a server listens on: a well-known one (below 1024) or a registered one of the tables
 * above (3306, 5432, 8080…). The other side of such a conversation is on an ephemeral port.
 */
export function isServicePort(proto: "tcp" | "udp", port: number): boolean {
  return (port > 0 && port < 1024) || (proto === "tcp" ? TCP_PORTS : UDP_PORTS)[port] !== undefined;
}

/**
 * Name of the application by port. The server's port is tried first, then the client's,
 * so "client 53211 -> server 443" gives "https" whichever side the capture saw first.
 */
export function appNameForPorts(proto: "tcp" | "udp", serverPort: number, clientPort: number): string | null {
  const table = proto === "tcp" ? TCP_PORTS : UDP_PORTS;
  return table[serverPort] ?? table[clientPort] ?? null;
}

/** Server name from a TLS ClientHello (SNI extension) at b[off .. off+len), or null. */
export function tlsServerName(b: Uint8Array, off: number, len: number): string | null {
  const end = off + len;
  // record header: type 22 (handshake), version 3.x, length
  if (len < 9 || b[off] !== 22 || b[off + 1] !== 3) return null;
  let p = off + 5;
  if (b[p] !== 1) return null; // ClientHello
  p += 4; // handshake type + 24-bit length
  p += 2 + 32; // client version + random
  if (p + 1 > end) return null;
  p += 1 + b[p]; // session id
  if (p + 2 > end) return null;
  p += 2 + ((b[p] << 8) | b[p + 1]); // cipher suites
  if (p + 1 > end) return null;
  p += 1 + b[p]; // compression methods
  if (p + 2 > end) return null;
  const extEnd = Math.min(end, p + 2 + ((b[p] << 8) | b[p + 1]));
  p += 2;
  while (p + 4 <= extEnd) {
    const type = (b[p] << 8) | b[p + 1];
    const elen = (b[p + 2] << 8) | b[p + 3];
    p += 4;
    if (type === 0) {
      // server_name: list length, then entries of (type, length, name)
      let q = p + 2;
      const listEnd = Math.min(extEnd, p + elen);
      while (q + 3 <= listEnd) {
        const nameType = b[q];
        const nlen = (b[q + 1] << 8) | b[q + 2];
        q += 3;
        if (q + nlen > listEnd) return null;
        if (nameType === 0) return asciiName(b, q, nlen);
        q += nlen;
      }
      return null;
    }
    p += elen;
  }
  return null;
}

const METHODS = ["GET ", "POST ", "HEAD ", "PUT ", "DELETE ", "OPTIONS ", "PATCH ", "CONNECT ", "TRACE "];

/** Host header of an HTTP/1.x request starting at b[off], or null. */
export function httpHost(b: Uint8Array, off: number, len: number): string | null {
  if (len < 16) return null;
  const c0 = b[off];
  if (c0 < 0x41 || c0 > 0x5a) return null; // methods are upper-case letters
  let isRequest = false;
  for (const m of METHODS) {
    let ok = m.length <= len;
    for (let i = 0; ok && i < m.length; i++) if (b[off + i] !== m.charCodeAt(i)) ok = false;
    if (ok) {
      isRequest = true;
      break;
    }
  }
  if (!isRequest) return null;
  const end = off + len;
  // look for "\nhost:" (case-insensitive) in the header block
  for (let p = off; p + 6 < end; p++) {
    if (b[p] !== 0x0a) continue;
    if (b[p + 1] === 0x0d || b[p + 1] === 0x0a) return null; // end of headers
    if (
      (b[p + 1] | 0x20) === 0x68 &&
      (b[p + 2] | 0x20) === 0x6f &&
      (b[p + 3] | 0x20) === 0x73 &&
      (b[p + 4] | 0x20) === 0x74 &&
      b[p + 5] === 0x3a
    ) {
      let s = p + 6;
      while (s < end && (b[s] === 0x20 || b[s] === 0x09)) s++;
      let e = s;
      while (e < end && b[e] !== 0x0d && b[e] !== 0x0a) e++;
      if (e === end) return null; // header line cut by the snap length: do not guess
      let host = asciiName(b, s, e - s);
      if (host === null) return null;
      host = host.trim();
      // drop a ":port" suffix (but not the colons of a bracketed IPv6 literal)
      const m = /^(.*?)(?::\d+)?$/.exec(host);
      if (m && m[1] !== "") host = m[1];
      return host === "" ? null : host;
    }
  }
  return null;
}

function asciiName(b: Uint8Array, off: number, len: number): string | null {
  if (len <= 0 || len > 255) return null;
  let s = "";
  for (let i = 0; i < len; i++) {
    const c = b[off + i];
    if (c < 0x21 || c > 0x7e) return null;
    s += String.fromCharCode(c);
  }
  return s.toLowerCase();
}
