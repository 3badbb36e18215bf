//! `donna run` under a service manager (systemd `Type=notify`, as deploy/donna.service runs
//! it): READY=1 only once /health answers, WATCHDOG=1 at half the interval asked for, and
//! STOPPING=1 when SIGTERM begins the stop. The test plays systemd: it binds the notify socket.

use crate::common;

use common::process::{donna, free_port, health, spawn_run, terminate, write_config};
use std::os::unix::net::UnixDatagram;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::wait_until;

/// The datagrams received until `until` holds for one of them, or the time limit passes.
fn receive_until(
    socket: &UnixDatagram,
    limit: Duration,
    until: impl Fn(&str) -> bool,
) -> Vec<String> {
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    // Each look waits up to the socket's read timeout for a datagram.
    wait_until(limit, || {
        let Ok(length) = socket.recv(&mut buffer) else {
            return false;
        };
        let message = String::from_utf8_lossy(&buffer[..length]).to_string();
        let done = until(&message);
        received.push(message);
        done
    });
    received
}

#[test]
fn run_tells_the_service_manager_it_is_ready_alive_and_stopping() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let socket_path = dir.path().join("notify.sock");
    let socket = UnixDatagram::bind(&socket_path).unwrap_or_else(|e| panic!("{e}"));
    socket
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap_or_else(|e| panic!("{e}"));
    let port = free_port();
    let config = write_config(dir.path(), port);
    let mut managed = donna();
    managed
        .env("NOTIFY_SOCKET", &socket_path)
        // 400 ms: Donna pings every 200 ms.
        .env("WATCHDOG_USEC", "400000");
    let mut running = spawn_run(managed, &config, port, &[], Stdio::null());

    let startup = receive_until(&socket, Duration::from_secs(30), |m| m.contains("READY=1"));
    let ready = startup.iter().find(|m| m.contains("READY=1"));
    assert!(ready.is_some(), "no READY=1: {startup:?}");
    assert!(
        ready.is_some_and(|m| m.contains(&format!("STATUS=serving on 127.0.0.1:{port}"))),
        "{startup:?}"
    );
    // Ready means ready: /health answers at once, without waiting.
    assert_eq!(health(port).map(|(status, _)| status), Some(200));

    let started = Instant::now();
    let pings = receive_until(&socket, Duration::from_secs(3), |_| false)
        .into_iter()
        .filter(|m| m.contains("WATCHDOG=1"))
        .count();
    // 3 s at one ping per 200 ms is 15; a loaded machine may be late, never silent.
    assert!(
        pings >= 5,
        "{pings} watchdog pings in {:?}",
        started.elapsed()
    );

    let _ = std::process::Command::new("kill")
        .args(["-TERM", &running.child.id().to_string()])
        .status();
    let stop = receive_until(&socket, Duration::from_secs(10), |m| {
        m.contains("STOPPING=1")
    });
    assert!(
        stop.iter().any(|m| m.contains("STOPPING=1")),
        "no STOPPING=1 after SIGTERM: {stop:?}"
    );
    assert_eq!(terminate(&mut running.child), Some(0));
}
