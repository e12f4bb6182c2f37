/*
 * A catalogue of real applications with their usual ports, for application visibility, sessions
 * and netflows. `weight` orders how common each is on a business site (the Zipf rank follows it,
 * perturbed per device); `down` is the share of bytes that flows towards the site.
 */

export interface AppEntry {
  app_name: string;
  description: string;
  port: number;
  protocol: "TCP" | "UDP";
  weight: number;
  down: number;
  /** Typical kilobytes per hit: bulk apps carry the bytes, DNS and NTP the hits. */
  kb: number;
}

export const APPS: readonly AppEntry[] = [
  { app_name: "HTTPS", description: "Secure web browsing (TLS)", port: 443, protocol: "TCP", weight: 100, down: 0.85, kb: 120 },
  { app_name: "Microsoft 365", description: "Office 365, Outlook and SharePoint Online", port: 443, protocol: "TCP", weight: 80, down: 0.8, kb: 200 },
  { app_name: "Microsoft Teams", description: "Teams meetings and calls (media)", port: 3478, protocol: "UDP", weight: 60, down: 0.55, kb: 1500 },
  { app_name: "Zoom", description: "Zoom video conferencing", port: 8801, protocol: "UDP", weight: 55, down: 0.55, kb: 1500 },
  { app_name: "Google Workspace", description: "Gmail, Drive and Docs", port: 443, protocol: "TCP", weight: 50, down: 0.8, kb: 150 },
  { app_name: "YouTube", description: "Video streaming", port: 443, protocol: "UDP", weight: 45, down: 0.97, kb: 4000 },
  { app_name: "Salesforce", description: "Salesforce CRM", port: 443, protocol: "TCP", weight: 35, down: 0.75, kb: 80 },
  { app_name: "Slack", description: "Slack messaging", port: 443, protocol: "TCP", weight: 33, down: 0.7, kb: 30 },
  { app_name: "DNS", description: "Domain name resolution", port: 53, protocol: "UDP", weight: 90, down: 0.6, kb: 0.15 },
  { app_name: "NTP", description: "Network time", port: 123, protocol: "UDP", weight: 20, down: 0.5, kb: 0.1 },
  { app_name: "HTTP", description: "Plain web traffic", port: 80, protocol: "TCP", weight: 30, down: 0.9, kb: 60 },
  { app_name: "SSH", description: "Secure shell", port: 22, protocol: "TCP", weight: 12, down: 0.5, kb: 20 },
  { app_name: "RDP", description: "Microsoft Remote Desktop", port: 3389, protocol: "TCP", weight: 14, down: 0.8, kb: 400 },
  { app_name: "SMB", description: "Windows file sharing", port: 445, protocol: "TCP", weight: 16, down: 0.6, kb: 800 },
  { app_name: "LDAP", description: "Directory lookups", port: 389, protocol: "TCP", weight: 8, down: 0.6, kb: 2 },
  { app_name: "Kerberos", description: "Windows domain authentication", port: 88, protocol: "UDP", weight: 9, down: 0.5, kb: 1 },
  { app_name: "SMTP", description: "Mail transfer", port: 25, protocol: "TCP", weight: 7, down: 0.3, kb: 40 },
  { app_name: "IMAPS", description: "Mailbox access over TLS", port: 993, protocol: "TCP", weight: 6, down: 0.85, kb: 60 },
  { app_name: "SIP", description: "VoIP signalling", port: 5060, protocol: "UDP", weight: 10, down: 0.5, kb: 2 },
  { app_name: "RTP", description: "VoIP media", port: 16384, protocol: "UDP", weight: 11, down: 0.5, kb: 600 },
  { app_name: "Webex", description: "Cisco Webex meetings", port: 9000, protocol: "UDP", weight: 15, down: 0.55, kb: 1500 },
  { app_name: "Dropbox", description: "Dropbox file sync", port: 443, protocol: "TCP", weight: 13, down: 0.6, kb: 900 },
  { app_name: "AWS S3", description: "Amazon S3 object storage", port: 443, protocol: "TCP", weight: 18, down: 0.5, kb: 1500 },
  { app_name: "Azure Storage", description: "Azure Blob storage", port: 443, protocol: "TCP", weight: 12, down: 0.5, kb: 1200 },
  { app_name: "GitHub", description: "Git hosting over HTTPS and SSH", port: 443, protocol: "TCP", weight: 10, down: 0.7, kb: 300 },
  { app_name: "Windows Update", description: "Microsoft software updates", port: 443, protocol: "TCP", weight: 17, down: 0.98, kb: 6000 },
  { app_name: "Apple iCloud", description: "iCloud services", port: 443, protocol: "TCP", weight: 9, down: 0.7, kb: 500 },
  { app_name: "Netflix", description: "Video streaming", port: 443, protocol: "TCP", weight: 8, down: 0.98, kb: 8000 },
  { app_name: "Spotify", description: "Music streaming", port: 4070, protocol: "TCP", weight: 9, down: 0.95, kb: 900 },
  { app_name: "LinkedIn", description: "Professional network", port: 443, protocol: "TCP", weight: 7, down: 0.85, kb: 150 },
  { app_name: "SNMP", description: "Device monitoring", port: 161, protocol: "UDP", weight: 5, down: 0.4, kb: 0.5 },
  { app_name: "Syslog", description: "Log shipping", port: 514, protocol: "UDP", weight: 5, down: 0.05, kb: 0.3 },
  { app_name: "MySQL", description: "MySQL database", port: 3306, protocol: "TCP", weight: 6, down: 0.7, kb: 20 },
  { app_name: "PostgreSQL", description: "PostgreSQL database", port: 5432, protocol: "TCP", weight: 6, down: 0.7, kb: 20 },
  { app_name: "Microsoft SQL Server", description: "SQL Server database", port: 1433, protocol: "TCP", weight: 5, down: 0.7, kb: 20 },
  { app_name: "IPsec", description: "IPsec VPN (NAT traversal)", port: 4500, protocol: "UDP", weight: 8, down: 0.55, kb: 500 },
  { app_name: "OpenVPN", description: "OpenVPN tunnel", port: 1194, protocol: "UDP", weight: 4, down: 0.6, kb: 500 },
  { app_name: "FTP", description: "File transfer", port: 21, protocol: "TCP", weight: 3, down: 0.7, kb: 2000 },
  { app_name: "Citrix ICA", description: "Citrix virtual apps", port: 1494, protocol: "TCP", weight: 6, down: 0.8, kb: 300 },
  { app_name: "Kafka", description: "Apache Kafka messaging", port: 9092, protocol: "TCP", weight: 3, down: 0.4, kb: 50 },
];

/** Typical client ephemeral port range (Linux). */
export const EPHEMERAL_LOW = 32768;
export const EPHEMERAL_SPAN = 28232;
