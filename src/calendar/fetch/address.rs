//! Which addresses a person's calendar URL may be fetched from: public unicast ones only.
//!
//! Refused (IPv4): 0.0.0.0/8, 10/8, 100.64/10 (carrier-grade NAT), 127/8, 169.254/16
//! (link-local, cloud metadata), 172.16/12, 192.0.0/24, 192.0.2/24, 192.168/16, 198.18/15,
//! 198.51.100/24, 203.0.113/24, 224/4 (multicast), 240/4 and the broadcast address.
//! Refused (IPv6): ::, ::1, fc00::/7 (unique local), fe80::/10 (link-local), fec0::/10,
//! ff00::/8 (multicast), 2001:db8::/32, 2001::/32 (Teredo), 100::/64; and any address that
//! carries an IPv4 one (v4-mapped ::ffff:a.b.c.d, v4-compatible ::a.b.c.d, NAT64 64:ff9b::/96,
//! 6to4 2002::/16) is judged by the IPv4 address inside.
//! Invariant: pure; anything not known to be public is refused.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

fn public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    let refused = ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_multicast()
        || ip.is_broadcast()
        || ip.is_documentation()
        || a == 0
        || a >= 240
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0 && c == 0)
        || (a == 198 && (b == 18 || b == 19));
    !refused
}

fn public_v6(ip: Ipv6Addr) -> bool {
    let segments = ip.segments();
    if let Some(v4) = ip.to_ipv4_mapped() {
        return public_v4(v4);
    }
    // v4-compatible (::a.b.c.d, deprecated) and NAT64 (64:ff9b::a.b.c.d): the last 32 bits.
    let last_v4 = Ipv4Addr::new(
        (segments[6] >> 8) as u8,
        segments[6] as u8,
        (segments[7] >> 8) as u8,
        segments[7] as u8,
    );
    if segments[..6] == [0, 0, 0, 0, 0, 0] && !ip.is_unspecified() && !ip.is_loopback() {
        return public_v4(last_v4);
    }
    if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return public_v4(last_v4);
    }
    // 6to4 (2002:a.b.c.d::/48): the IPv4 address in the second and third segments.
    if segments[0] == 0x2002 {
        let v4 = Ipv4Addr::new(
            (segments[1] >> 8) as u8,
            segments[1] as u8,
            (segments[2] >> 8) as u8,
            segments[2] as u8,
        );
        return public_v4(v4);
    }
    let refused = ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        || (segments[0] & 0xfe00) == 0xfc00
        || (segments[0] & 0xffc0) == 0xfe80
        || (segments[0] & 0xffc0) == 0xfec0
        || (segments[0] == 0x2001 && segments[1] == 0x0db8)
        || (segments[0] == 0x2001 && segments[1] == 0)
        || segments[..4] == [0x100, 0, 0, 0];
    !refused
}

/// Whether `ip` is a public unicast address.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => public_v4(v4),
        IpAddr::V6(v6) => public_v6(v6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_unicast_addresses_are_fetched_from() {
        let cases = [
            ("8.8.8.8", true),
            ("142.250.185.206", true),
            ("2a00:1450:4001:80e::200e", true),
            ("2606:4700::6810:85e5", true),
            ("127.0.0.1", false),
            ("127.1.2.3", false),
            ("10.0.0.5", false),
            ("172.16.0.1", false),
            ("172.31.255.255", false),
            ("192.168.1.10", false),
            ("169.254.169.254", false),
            ("100.64.0.1", false),
            ("0.0.0.0", false),
            ("0.1.2.3", false),
            ("224.0.0.1", false),
            ("255.255.255.255", false),
            ("240.0.0.1", false),
            ("192.0.2.1", false),
            ("198.18.0.1", false),
            ("::", false),
            ("::1", false),
            ("fe80::1", false),
            ("fc00::1", false),
            ("fd12:3456::1", false),
            ("ff02::1", false),
            ("2001:db8::1", false),
            ("::ffff:127.0.0.1", false),
            ("::ffff:10.1.2.3", false),
            ("::ffff:8.8.8.8", true),
            ("::127.0.0.1", false),
            ("64:ff9b::a9fe:a9fe", false),
            ("64:ff9b::808:808", true),
            ("2002:c0a8:0101::1", false),
            ("2002:0808:0808::1", true),
            ("2001:0:4136:e378::1", false),
        ];
        for (text, public) in cases {
            let ip: IpAddr = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(is_public(ip), public, "{text}");
        }
    }
}
