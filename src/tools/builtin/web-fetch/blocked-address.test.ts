import { describe, expect, it } from "vitest";
import { findBlockedAddressReason } from "./blocked-address.js";
import { checkFetchUrl } from "./check-fetch-url.js";

describe("findBlockedAddressReason", () => {
  it.each([
    ["127.0.0.1", /loopback/],
    ["127.255.255.254", /loopback/],
    ["10.0.0.1", /private/],
    ["172.16.5.4", /private/],
    ["192.168.1.1", /private/],
    ["169.254.169.254", /link-local.*metadata/],
    ["100.64.0.1", /carrier-grade NAT/],
    ["100.100.100.200", /metadata/],
    ["0.0.0.0", /unspecified/],
    ["224.0.0.251", /multicast/],
    ["255.255.255.255", /broadcast/],
    ["192.0.2.10", /reserved/],
    ["240.0.0.1", /reserved/],
    // IPv4 spellings getaddrinfo and inet_aton accept.
    ["0177.0.0.1", /loopback/],
    ["2130706433", /loopback/],
    ["0x7f.1", /loopback/],
    ["127.1", /loopback/],
    ["012.0.0.1", /private/],
    // IPv6, and IPv6 forms that carry an IPv4 address.
    ["::1", /loopback/],
    ["::", /unspecified/],
    ["fe80::1", /link-local/],
    ["fe80::1%eth0", /link-local/],
    ["fc00::1", /private/],
    ["fd00:ec2::254", /metadata/],
    ["ff02::1", /multicast/],
    ["::ffff:127.0.0.1", /loopback.*IPv6/],
    ["::ffff:7f00:1", /loopback.*IPv6/],
    ["::ffff:169.254.169.254", /link-local.*IPv6/],
    ["::ffff:0:a00:1", /private.*IPv6/],
    ["::7f00:1", /loopback.*IPv6/],
    ["64:ff9b::a9fe:a9fe", /link-local.*IPv6/],
    ["2002:c0a8:101::1", /private.*IPv6/],
    ["2001:db8::1", /reserved/],
    ["2001::1", /IPv6/],
    ["4000::1", /outside IPv6 global unicast/],
    ["not-an-ip", /not an IP address/],
  ])("refuses %s", (address, reason) => {
    expect(findBlockedAddressReason(address)).toMatch(reason);
  });

  it.each(["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "64:ff9b::808:808"])(
    "accepts the public address %s",
    (address) => {
      expect(findBlockedAddressReason(address)).toBeUndefined();
    },
  );

  it("accepts loopback, in every form, only when loopback is allowed — and never private or metadata addresses", () => {
    for (const address of ["127.0.0.1", "0177.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      expect(findBlockedAddressReason(address, { allowLoopback: true }), address).toBeUndefined();
    }
    for (const address of ["10.0.0.1", "169.254.169.254", "fe80::1", "::ffff:192.168.0.1"]) {
      expect(findBlockedAddressReason(address, { allowLoopback: true }), address).toBeDefined();
    }
  });
});

describe("checkFetchUrl", () => {
  it("sees the address behind the URL parser's IPv4 spellings", () => {
    for (const url of ["http://2130706433/", "http://0x7f000001/", "http://0177.0.0.1/", "http://127.1/", "http://0x7f.0.0.1/"]) {
      expect(checkFetchUrl(url).host, url).toBe("127.0.0.1");
    }
    expect(checkFetchUrl("http://[::ffff:127.0.0.1]/").host).toBe("::ffff:7f00:1");
    expect(checkFetchUrl("http://[0:0:0:0:0:0:0:1]:8080/x").host).toBe("::1");
  });

  it.each([
    ["file:///etc/passwd", "invalid_arguments", /only fetches http and https/],
    ["ftp://example.com/file", "invalid_arguments", /only fetches http and https/],
    ["gopher://127.0.0.1:6379/_INFO", "invalid_arguments", /only fetches http and https/],
    ["not a url", "invalid_arguments", /not a valid URL/],
    ["https://user:secret@example.com/", "invalid_arguments", /credentials/],
    ["http://metadata.google.internal/computeMetadata/v1/", "permission", /metadata/],
    ["http://METADATA/latest", "permission", /metadata/],
  ])("refuses %s", (url, kind, message) => {
    expect(() => checkFetchUrl(url)).toThrow(expect.objectContaining({ kind, message: expect.stringMatching(message) }));
  });

  it("marks loopback names whatever their case or trailing dot", () => {
    for (const url of ["http://localhost/", "http://LOCALHOST./", "http://app.localhost:3000/"]) expect(checkFetchUrl(url).isLoopbackName, url).toBe(true);
    expect(checkFetchUrl("http://localhost.example.com/").isLoopbackName).toBe(false);
  });
});
