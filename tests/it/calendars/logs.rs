//! The log of the real binary when a calendar cannot be fetched: it says which calendar and
//! why, with the address cut to scheme and host, and never the URL's path or query (reqwest's
//! own error message carries the whole URL).

use std::time::Duration;

use crate::common::process::{self, free_port, terminate};
use crate::common::wait_for;

#[test]
fn a_failing_calendar_is_logged_without_its_path_or_query() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // Nothing listens on this port: the fetch fails with "connection refused".
    let url = format!(
        "http://127.0.0.1:{}/private-7f3a9c/basic.ics?token=hunter2",
        free_port()
    );
    let extra = format!(
        "calendars:\n  sources:\n    - {{name: Work, source: \"{url}\", for_user_id: ana}}\n"
    );
    let mut running = process::start_with(dir.path(), &extra, &[]);
    process::wait_healthy(&mut running);
    let port = running.port;
    let failed = wait_for(Duration::from_secs(20), || {
        let (_, health) = process::health(port)?;
        let error = health["calendars"][0]["error"].as_str()?.to_string();
        (error != "not read yet").then_some(error)
    });
    let error = failed.unwrap_or_else(|| panic!("the calendar was never tried"));
    assert!(error.contains("could not connect"), "{error}");
    assert_eq!(terminate(&mut running.child), Some(0));
    let stderr = running.stderr();
    assert!(stderr.contains("calendar refresh failed"), "{stderr}");
    assert!(
        stderr.contains("http://127.0.0.1:"),
        "the host is named: {stderr}"
    );
    for secret in ["private-7f3a9c", "basic.ics", "hunter2", "token="] {
        assert!(!stderr.contains(secret), "the log shows {secret}: {stderr}");
        assert!(!error.contains(secret), "/health shows {secret}: {error}");
    }
}
