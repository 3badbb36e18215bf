//! The standard `process_*` metrics (memory, CPU, file descriptors, threads, start time), read
//! from `/proc/self` at scrape time.
//!
//! A prometheus-client `Collector`: nothing is recorded between scrapes. Invariant: a figure
//! that cannot be read (not Linux, /proc not mounted) is left out of the scrape, never guessed;
//! the names and meanings are those of the official client libraries, so standard dashboards
//! work.

use std::fmt;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::MetricType;

/// Linux reports process times in USER_HZ, which is 100 on every architecture (it is part of
/// the kernel's user-space ABI, unlike the kernel's internal HZ).
const USER_HZ: f64 = 100.0;

/// The process figures of one scrape; each is `None` when it could not be read.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ProcessFigures {
    pub cpu_seconds: Option<f64>,
    pub resident_bytes: Option<u64>,
    pub virtual_bytes: Option<u64>,
    pub open_fds: Option<u64>,
    pub max_fds: Option<u64>,
    pub threads: Option<u64>,
    pub start_time_seconds: Option<f64>,
}

impl ProcessFigures {
    /// Reads this process's figures from /proc.
    pub fn read() -> Self {
        let stat = std::fs::read_to_string("/proc/self/stat").ok();
        let fields = stat.as_deref().map(stat_fields).unwrap_or_default();
        let field = |index: usize| fields.get(index).and_then(|v| v.parse::<u64>().ok());
        let boot_time = std::fs::read_to_string("/proc/stat")
            .ok()
            .and_then(|text| boot_time(&text));
        Self {
            cpu_seconds: field(STAT_UTIME)
                .zip(field(STAT_STIME))
                .map(|(user, system)| (user + system) as f64 / USER_HZ),
            resident_bytes: std::fs::read_to_string("/proc/self/status")
                .ok()
                .and_then(|text| status_kib(&text, "VmRSS:"))
                .map(|kib| kib * 1024),
            virtual_bytes: field(STAT_VSIZE),
            open_fds: std::fs::read_dir("/proc/self/fd")
                .ok()
                .map(|dir| dir.count() as u64),
            max_fds: std::fs::read_to_string("/proc/self/limits")
                .ok()
                .and_then(|text| max_open_files(&text)),
            threads: field(STAT_THREADS),
            start_time_seconds: boot_time
                .zip(field(STAT_STARTTIME))
                .map(|(boot, ticks)| boot as f64 + ticks as f64 / USER_HZ),
        }
    }
}

// Indexes into the fields of /proc/self/stat after the command name (field 3, the state, is 0):
// proc(5) numbers utime 14, stime 15, num_threads 20, starttime 22, vsize 23.
const STAT_UTIME: usize = 11;
const STAT_STIME: usize = 12;
const STAT_THREADS: usize = 17;
const STAT_STARTTIME: usize = 19;
const STAT_VSIZE: usize = 20;

/// The fields after the command name, which is in parentheses and may itself hold spaces or
/// parentheses (so split after the last ')').
fn stat_fields(stat: &str) -> Vec<String> {
    stat.rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

fn boot_time(proc_stat: &str) -> Option<u64> {
    proc_stat
        .lines()
        .find_map(|line| line.strip_prefix("btime "))
        .and_then(|value| value.trim().parse().ok())
}

fn status_kib(status: &str, key: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|line| line.strip_prefix(key))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|value| value.parse().ok())
}

fn max_open_files(limits: &str) -> Option<u64> {
    limits
        .lines()
        .find_map(|line| line.strip_prefix("Max open files"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|soft| soft.parse().ok())
}

/// Encodes `process_*` from /proc at every scrape.
#[derive(Debug, Default)]
pub struct ProcessCollector;

fn gauge(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    value: Option<f64>,
) -> fmt::Result {
    if let Some(value) = value {
        let metric = ConstGauge::new(value);
        metric.encode(encoder.encode_descriptor(name, help, None, MetricType::Gauge)?)?;
    }
    Ok(())
}

impl Collector for ProcessCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> fmt::Result {
        let figures = ProcessFigures::read();
        if let Some(seconds) = figures.cpu_seconds {
            let metric = ConstCounter::new(seconds);
            metric.encode(encoder.encode_descriptor(
                "process_cpu_seconds",
                "Total user and system CPU time spent in seconds.",
                None,
                MetricType::Counter,
            )?)?;
        }
        let as_f64 = |value: Option<u64>| value.map(|v| v as f64);
        gauge(
            &mut encoder,
            "process_resident_memory_bytes",
            "Resident memory size in bytes.",
            as_f64(figures.resident_bytes),
        )?;
        gauge(
            &mut encoder,
            "process_virtual_memory_bytes",
            "Virtual memory size in bytes.",
            as_f64(figures.virtual_bytes),
        )?;
        gauge(
            &mut encoder,
            "process_open_fds",
            "Number of open file descriptors.",
            as_f64(figures.open_fds),
        )?;
        gauge(
            &mut encoder,
            "process_max_fds",
            "Maximum number of open file descriptors.",
            as_f64(figures.max_fds),
        )?;
        gauge(
            &mut encoder,
            "process_threads",
            "Number of OS threads in the process.",
            as_f64(figures.threads),
        )?;
        gauge(
            &mut encoder,
            "process_start_time_seconds",
            "Start time of the process since unix epoch in seconds.",
            figures.start_time_seconds,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_name_with_spaces_and_parentheses_does_not_shift_the_fields() {
        let stat = "42 (a (b) c) S 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 7 0 1000 4096 300";
        let fields = stat_fields(stat);
        assert_eq!(fields[STAT_UTIME], "250");
        assert_eq!(fields[STAT_STIME], "50");
        assert_eq!(fields[STAT_THREADS], "7");
        assert_eq!(fields[STAT_STARTTIME], "1000");
        assert_eq!(fields[STAT_VSIZE], "4096");
    }

    #[test]
    fn this_process_reports_memory_cpu_and_descriptors_on_linux() {
        if !std::path::Path::new("/proc/self/stat").exists() {
            return;
        }
        let figures = ProcessFigures::read();
        assert!(figures.resident_bytes.is_some_and(|bytes| bytes > 0));
        assert!(figures.open_fds.is_some_and(|fds| fds > 0));
        assert!(figures.cpu_seconds.is_some());
        assert!(figures.start_time_seconds.is_some_and(|t| t > 1.0e9));
    }
}
