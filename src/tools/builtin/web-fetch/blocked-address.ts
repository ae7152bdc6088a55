import ipaddr from "ipaddr.js";

export interface AddressPolicy {
  /** Allow 127.0.0.0/8 and ::1 (and their embedded forms): the user serves pages on this machine. */
  allowLoopback?: boolean;
}

// ipaddr.js range names that a fetch of the public web never needs, with the words the model sees.
const blockedIPv4Ranges: Record<string, string> = {
  unspecified: "an unspecified address (0.0.0.0/8)",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address (169.254.0.0/16, where cloud metadata services answer)",
  loopback: "a loopback address (this machine)",
  carrierGradeNat: "a carrier-grade NAT address (100.64.0.0/10)",
  private: "a private network address (10/8, 172.16/12, 192.168/16)",
  reserved: "a reserved or documentation address",
  as112: "a reserved DNS sink address",
  amt: "a reserved multicast tunnel address",
};

// Hosts of cloud metadata services that are not in a range above (169.254.169.254 is link-local).
// 100.100.100.200 is Alibaba Cloud's (carrier-grade NAT range, listed for the clearer message),
// fd00:ec2::254 is AWS's IPv6 endpoint (unique local).
const metadataAddresses = new Set(["100.100.100.200", "fd00:ec2::254"]);

/**
 * Why `address` (an IP literal, as DNS returned it) must not be fetched, or undefined when it is a
 * public unicast address. IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`, compatible
 * `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by the IPv4 address inside; any
 * IPv6 address outside global unicast (2000::/3) is refused. Spellings such as `0177.0.0.1`,
 * `2130706433` or `0x7f.1` are parsed as the IPv4 address they name.
 */
export function findBlockedAddressReason(address: string, policy: AddressPolicy = {}): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ""));
  } catch {
    return `'${address}' is not an IP address`;
  }
  const normalized = parsed.toNormalizedString();
  if (metadataAddresses.has(parsed.toString()) || metadataAddresses.has(normalized)) return "a cloud metadata service address";
  if (parsed.kind() === "ipv4") return ipv4Reason(parsed as ipaddr.IPv4, policy);
  return ipv6Reason(parsed as ipaddr.IPv6, policy);
}

function ipv4Reason(address: ipaddr.IPv4, policy: AddressPolicy): string | undefined {
  const range = address.range();
  if (range === "unicast") return undefined;
  if (range === "loopback" && policy.allowLoopback === true) return undefined;
  return blockedIPv4Ranges[range] ?? `an address in the ${range} range`;
}

function ipv6Reason(address: ipaddr.IPv6, policy: AddressPolicy): string | undefined {
  const embedded = embeddedIPv4(address);
  if (embedded) {
    const reason = findBlockedAddressReason(embedded.toString(), policy);
    return reason === undefined ? undefined : `${reason}, written as IPv6 (${address.toString()})`;
  }
  const range = address.range();
  if (range === "loopback") return policy.allowLoopback === true ? undefined : "a loopback address (this machine)";
  if (range === "unspecified") return "an unspecified address (::)";
  if (range === "linkLocal") return "a link-local address (fe80::/10)";
  if (range === "uniqueLocal") return "a private network address (fc00::/7)";
  if (range === "multicast") return "a multicast address";
  if (range !== "unicast") return `an address in the IPv6 ${range} range`;
  const [first] = address.parts;
  if (first === undefined || first < 0x2000 || first > 0x3fff) return "an address outside IPv6 global unicast (2000::/3)";
  return undefined;
}

/** The IPv4 address an IPv6 address stands for, in the forms that route to it. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts;
  const lastTwo = (): ipaddr.IPv4 => ipv4From(parts[6]!, parts[7]!);
  const range = address.range();
  if (range === "ipv4Mapped" || range === "rfc6145") return lastTwo();
  if (range === "rfc6052" && parts[0] === 0x64 && parts[1] === 0xff9b && parts[2] === 0) return lastTwo();
  if (range === "6to4") return ipv4From(parts[1]!, parts[2]!);
  // IPv4-compatible (::a.b.c.d, deprecated but still parsed by stacks): the first 96 bits are zero.
  const upperZero = parts.slice(0, 6).every((part) => part === 0);
  if (upperZero && (parts[6] !== 0 || parts[7]! > 1)) return lastTwo();
  return undefined;
}

function ipv4From(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}
