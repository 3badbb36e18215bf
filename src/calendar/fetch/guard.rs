//! Keeping a person's calendar URL off private addresses: a DNS resolver that answers only
//! public addresses, and a redirect policy that checks every hop.
//!
//! Why both: reqwest asks the resolver for every host name it connects to (the first URL and
//! each redirect), so a name that resolves to 127.0.0.1 or 169.254.169.254 connects nowhere;
//! but a literal IP in a URL is never resolved, so the first URL (`check_url`) and each
//! redirect (`redirects`) are checked for literal addresses here. Proxies are off for these
//! requests (a proxy would resolve the name itself).
//! Invariants: a name with no public address is refused (the private ones are never tried);
//! only http(s) is followed; at most `MAX_REDIRECTS` hops.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::redirect::{Attempt, Policy};
use reqwest::Url;

use super::address::is_public;

/// The most redirects followed.
pub const MAX_REDIRECTS: usize = 5;

/// Why a URL was not fetched. Its message names no URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the address is not a public one (loopback, private, link-local or reserved)")]
    PrivateAddress,
    #[error("a redirect to something other than http(s)")]
    Scheme,
    #[error("more than {MAX_REDIRECTS} redirects")]
    TooManyRedirects,
}

/// Which addresses may be fetched from: public ones, and those a test names as if they were
/// (`Fetcher::treating_as_public`: loopback has no public address to test a redirect from).
#[derive(Debug, Default, Clone)]
pub struct Rule {
    also_public: Arc<Vec<IpAddr>>,
}

impl Rule {
    pub fn treating_as_public(addresses: Vec<IpAddr>) -> Self {
        Self {
            also_public: Arc::new(addresses),
        }
    }

    pub fn allows(&self, ip: IpAddr) -> bool {
        is_public(ip) || self.also_public.contains(&ip)
    }
}

/// A resolver that keeps only the addresses the rule allows.
#[derive(Debug, Default, Clone)]
pub struct PublicOnly(pub Rule);

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_string();
        let rule = self.0.clone();
        Box::pin(async move {
            let found = tokio::net::lookup_host((host.as_str(), 0)).await?;
            let public: Vec<SocketAddr> = found.filter(|addr| rule.allows(addr.ip())).collect();
            if public.is_empty() {
                return Err(Box::new(Refused::PrivateAddress) as Box<_>);
            }
            Ok(Box::new(public.into_iter()) as Addrs)
        })
    }
}

/// A URL's literal IP host, when it has one that is not public.
pub fn check_url(url: &Url, rule: &Rule) -> Result<(), Refused> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(Refused::Scheme);
    }
    // An IPv6 host is written in brackets ("[::1]").
    let literal: Option<IpAddr> = url
        .host_str()
        .map(|host| host.trim_start_matches('[').trim_end_matches(']'))
        .and_then(|host| host.parse().ok());
    match literal {
        Some(ip) if !rule.allows(ip) => Err(Refused::PrivateAddress),
        _ => Ok(()),
    }
}

/// Follows at most `MAX_REDIRECTS` hops, each checked like the first URL.
pub fn redirects(rule: Rule) -> Policy {
    Policy::custom(move |attempt: Attempt| {
        if attempt.previous().len() > MAX_REDIRECTS {
            return attempt.error(Refused::TooManyRedirects);
        }
        match check_url(attempt.url(), &rule) {
            Ok(()) => attempt.follow(),
            Err(refused) => attempt.error(refused),
        }
    })
}
