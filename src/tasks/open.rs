//! The open tasks a question asks about, found by SQLite on indexes: only the open tasks
//! someone may see, only in the window asked about ("what's due today?", "what's overdue?"),
//! so the cost of a list follows the tasks it lists, not every task ever stored.
//!
//! Who may see a task (`visible`): everyone (None), or someone taking part in the chats of the
//! set: a task captured in one of them, or not captured in a chat at all (the HTTP API's).
//! Which tasks (`Window`): every open one, the overdue ones (deadline passed), or those whose
//! deadline or scheduled start falls in [from, to). Order: soonest first (the earlier of
//! deadline and start), tasks without a time last, oldest first, then by id.
//!
//! Indexes (migration 0025), partial ones over open tasks only, so a closed task costs nothing
//! here: their deadlines (`task_open_deadline`), starts (`task_open_start`), and chats then
//! deadlines or starts (`task_open_origin`, `task_open_origin_start`). The visible chats reach
//! SQLite as one JSON array.
//! Invariant: read-only; the same tasks, in the same order, as filtering every task would give
//! (`src/tasks/open.rs` tests compare both).

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use rusqlite::types::Value as SqlValue;
use rusqlite::Connection;

use super::repo::{from_row, COLUMNS};
use super::Task;
use crate::store::time::to_db;
use crate::store::StoreError;

/// Which open tasks a question is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// Every open task.
    Any,
    /// Those whose deadline has passed at this time (deadline <= it).
    Overdue(DateTime<Utc>),
    /// Those whose deadline or scheduled start falls in [from, to).
    Between {
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    },
    /// Those due after this time (deadline > it): what a slot starting then could still be
    /// found for.
    DueAfter(DateTime<Utc>),
}

/// Which chats the tasks may come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origins<'a> {
    /// Every chat and none.
    Every,
    /// The chats of the set, and no chat (the HTTP API's tasks).
    Visible(&'a BTreeSet<String>),
    /// That one chat only (a group's list: nobody's tasks from elsewhere).
    Only(&'a str),
}

impl<'a> From<Option<&'a BTreeSet<String>>> for Origins<'a> {
    fn from(visible: Option<&'a BTreeSet<String>>) -> Self {
        visible.map_or(Origins::Every, Origins::Visible)
    }
}

const COUNT: &str = "COUNT(*)";

/// A task's time for the order: the earlier of its deadline and scheduled start.
const WHEN: &str = "CASE WHEN deadline IS NULL THEN scheduled_start \
     WHEN scheduled_start IS NULL THEN deadline ELSE MIN(deadline, scheduled_start) END";

/// The open tasks in `window` someone taking part in `visible` may see, soonest first; at
/// most `limit` of them.
pub fn tasks<'a>(
    conn: &Connection,
    visible: impl Into<Origins<'a>>,
    window: Window,
    limit: Option<usize>,
) -> Result<Vec<Task>, StoreError> {
    let (sql, params) = select(COLUMNS, visible.into(), window, limit)?;
    let mut statement = conn.prepare_cached(&sql)?;
    let mut rows = statement.query(rusqlite::params_from_iter(params))?;
    let mut tasks = Vec::new();
    while let Some(row) = rows.next()? {
        tasks.push(from_row(row)?);
    }
    Ok(tasks)
}

/// The ids of [`tasks`] from `origins`, in its order, at most `limit` of them (what a list
/// remembers to show a page at a time).
pub fn ids(
    conn: &Connection,
    origins: Origins<'_>,
    window: Window,
    limit: Option<usize>,
) -> Result<Vec<String>, StoreError> {
    let (sql, params) = select("id", origins, window, limit)?;
    let ids = conn
        .prepare_cached(&sql)?
        .query_map(rusqlite::params_from_iter(params), |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(ids)
}

/// How many tasks from `origins` [`tasks`] would list.
pub fn count(conn: &Connection, origins: Origins<'_>, window: Window) -> Result<usize, StoreError> {
    let (sql, params) = select(COUNT, origins, window, None)?;
    let count: i64 = conn
        .prepare_cached(&sql)?
        .query_row(rusqlite::params_from_iter(params), |row| row.get(0))?;
    Ok(usize::try_from(count).unwrap_or(0))
}

/// The statement and its parameters. The text depends only on which filters are present, so
/// the statement cache keeps one of each kind.
///
/// Which index drives: with some chats visible, the chats' (`task_open_origin`: each visible
/// chat's open tasks and those of no chat, in the window by deadline or by start), so the
/// tasks of people who are not asking are never read; with every chat visible, the window's
/// (`task_open_deadline`, `task_open_start`), else every open task. Each part is a search of
/// one index, joined by `UNION ALL` inside `id IN (...)`: SQLite's planner takes no partial
/// index for one arm of an `OR`.
fn select(
    columns: &str,
    origins: Origins<'_>,
    window: Window,
    limit: Option<usize>,
) -> Result<(String, Vec<SqlValue>), StoreError> {
    const OPEN: &str = "status NOT IN ('done', 'cancelled')";
    let mut params = Vec::new();
    let mut param = |value: SqlValue| {
        params.push(value);
        format!("?{}", params.len())
    };
    // Where the tasks may come from: every chat, or none and the visible ones.
    let origins: Vec<String> = match origins {
        Origins::Every => vec![String::new()],
        Origins::Only(chat) => vec![format!(
            " AND origin_thread_id = {}",
            param(SqlValue::Text(chat.to_string()))
        )],
        Origins::Visible(chats) => {
            let chats = serde_json::to_string(chats)
                .map_err(|source| StoreError::json("the visible chats", source))?;
            let chats = param(SqlValue::Text(chats));
            vec![
                " AND origin_thread_id IS NULL".to_string(),
                format!(" AND origin_thread_id IN (SELECT value FROM json_each({chats}))"),
            ]
        }
    };
    // When: no bound, or one condition per index (deadline, start).
    let times: Vec<String> = match window {
        Window::Any => vec![String::new()],
        Window::Overdue(now) => vec![format!(
            " AND deadline <= {}",
            param(SqlValue::Text(to_db(now)))
        )],
        Window::DueAfter(at) => vec![format!(
            " AND deadline > {}",
            param(SqlValue::Text(to_db(at)))
        )],
        Window::Between { from, to } => {
            let (from, to) = (
                param(SqlValue::Text(to_db(from))),
                param(SqlValue::Text(to_db(to))),
            );
            vec![
                format!(" AND deadline >= {from} AND deadline < {to}"),
                format!(" AND scheduled_start >= {from} AND scheduled_start < {to}"),
            ]
        }
    };
    let searches: Vec<String> = origins
        .iter()
        .flat_map(|origin| {
            times
                .iter()
                .map(move |time| format!("{OPEN}{origin}{time}"))
        })
        .collect();
    let mut sql = match searches.as_slice() {
        [one] => format!("SELECT {columns} FROM task WHERE {one}"),
        several => format!(
            "SELECT {columns} FROM task WHERE id IN ({})",
            several
                .iter()
                .map(|search| format!("SELECT id FROM task WHERE {search}"))
                .collect::<Vec<_>>()
                .join(" UNION ALL ")
        ),
    };
    if columns != COUNT {
        sql.push_str(&format!(
            " ORDER BY ({WHEN}) IS NULL, {WHEN}, created_at, id"
        ));
    }
    if let Some(limit) = limit {
        let limit = param(SqlValue::Integer(i64::try_from(limit).unwrap_or(i64::MAX)));
        sql.push_str(&format!(" LIMIT {limit}"));
    }
    Ok((sql, params))
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone};

    use super::*;
    use crate::store::migrations::migrated_in_memory;
    use crate::store::query_plan::{plan, whole_reads};
    use crate::tasks::{repo, NewTask, TaskStatus};

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 30, 10, 0, 0)
            .single()
            .unwrap_or_default()
    }

    /// Tasks of every kind: statuses, times before, in and after today, chats a, b and none,
    /// some created at the same instant (the order falls back to the id).
    fn stored(conn: &Connection) -> Vec<Task> {
        let statuses = [
            TaskStatus::Backlog,
            TaskStatus::Done,
            TaskStatus::Scheduled,
            TaskStatus::Cancelled,
            TaskStatus::Blocked,
        ];
        let hours = [None, Some(-30), Some(-2), Some(3), Some(20), Some(50)];
        let chats = [None, Some("thr_a"), Some("thr_b")];
        for chat in chats.iter().flatten() {
            conn.execute(
                "INSERT INTO thread (id, channel, chat_id, created_at) \
                 VALUES (?1, 'local', ?1, '2026-11-01T00:00:00.000000Z')",
                [chat],
            )
            .unwrap_or_else(|e| panic!("{e}"));
        }
        let mut all = Vec::new();
        for n in 0..90_i64 {
            let at = |pick: usize| hours[pick % hours.len()].map(|h| now() + Duration::hours(h));
            let mut task = repo::insert(
                conn,
                &format!("tsk_{:02}", (n * 37) % 90),
                &NewTask::titled(format!("Task {n}")),
                now() - Duration::minutes(n / 3),
            )
            .unwrap_or_else(|e| panic!("{e}"));
            task.status = statuses[n as usize % statuses.len()];
            task.deadline = at(n as usize);
            task.scheduled_start = at((n / 2) as usize + 1).filter(|_| n % 4 == 0);
            task.origin_thread_id = chats[(n / 5) as usize % chats.len()].map(str::to_string);
            repo::put(conn, &task).unwrap_or_else(|e| panic!("{e}"));
            all.push(task);
        }
        all
    }

    /// What filtering every task gives: the answer `tasks` must match.
    fn filtered(all: &[Task], visible: Option<&BTreeSet<String>>, window: Window) -> Vec<String> {
        let when = |task: &Task| match (task.deadline, task.scheduled_start) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let mut kept: Vec<&Task> = all
            .iter()
            .filter(|task| task.status.is_open())
            .filter(|task| {
                visible.is_none_or(|chats| {
                    task.origin_thread_id
                        .as_ref()
                        .is_none_or(|chat| chats.contains(chat))
                })
            })
            .filter(|task| match window {
                Window::Any => true,
                Window::Overdue(now) => task.deadline.is_some_and(|at| at <= now),
                Window::DueAfter(after) => task.deadline.is_some_and(|at| at > after),
                Window::Between { from, to } => [task.deadline, task.scheduled_start]
                    .into_iter()
                    .flatten()
                    .any(|at| at >= from && at < to),
            })
            .collect();
        kept.sort_by_key(|task| (when(task).is_none(), when(task), task.created_at, &task.id));
        kept.into_iter().map(|task| task.id.clone()).collect()
    }

    fn windows() -> [Window; 4] {
        [
            Window::Any,
            Window::Overdue(now()),
            Window::DueAfter(now() + Duration::hours(3)),
            Window::Between {
                from: now(),
                to: now() + Duration::hours(14),
            },
        ]
    }

    #[test]
    fn sqlite_lists_the_same_tasks_in_the_same_order_as_filtering_every_task() {
        let conn = migrated_in_memory();
        let all = stored(&conn);
        let only_a: BTreeSet<String> = ["thr_a".to_string()].into();
        let a_and_b: BTreeSet<String> = ["thr_a".to_string(), "thr_b".to_string()].into();
        for visible in [None, Some(&only_a), Some(&a_and_b)] {
            for window in windows() {
                let expected = filtered(&all, visible, window);
                assert!(
                    !expected.is_empty(),
                    "{window:?} {visible:?}: a case with no task"
                );
                let listed: Vec<String> = tasks(&conn, visible, window, None)
                    .unwrap_or_else(|e| panic!("{e}"))
                    .into_iter()
                    .map(|task| task.id)
                    .collect();
                assert_eq!(listed, expected, "{window:?} {visible:?}");
                let ids =
                    ids(&conn, visible.into(), window, None).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(ids, expected, "{window:?} {visible:?}");
                let counted =
                    count(&conn, visible.into(), window).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(counted, expected.len(), "{window:?} {visible:?}");
                let first: Vec<String> = tasks(&conn, visible, window, Some(2))
                    .unwrap_or_else(|e| panic!("{e}"))
                    .into_iter()
                    .map(|task| task.id)
                    .collect();
                assert_eq!(first, expected[..2.min(expected.len())], "{window:?}");
            }
        }
        // A group's list: that chat's tasks only, not those of no chat.
        for window in windows() {
            let of_a: Vec<String> = filtered(&all, Some(&only_a), window)
                .into_iter()
                .filter(|id| {
                    all.iter().any(|task| {
                        task.id == *id && task.origin_thread_id.as_deref() == Some("thr_a")
                    })
                })
                .collect();
            let only = Origins::Only("thr_a");
            let ids = ids(&conn, only, window, None).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(ids, of_a, "{window:?}");
            let counted = count(&conn, only, window).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(counted, of_a.len(), "{window:?}");
        }
    }

    #[test]
    fn no_question_reads_the_task_table_whole() {
        let conn = migrated_in_memory();
        // What every question read before: each task, to filter them here. The check sees it.
        let every_task = plan(
            &conn,
            &format!("SELECT {COLUMNS} FROM task ORDER BY created_at DESC, id"),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(!whole_reads(&every_task, "task", &["task_open_origin"]).is_empty());
        let chats: BTreeSet<String> = ["thr_a".to_string()].into();
        for origins in [
            Origins::Every,
            Origins::Visible(&chats),
            Origins::Only("thr_a"),
        ] {
            let visible = (origins != Origins::Every).then_some(origins);
            for window in windows() {
                let (sql, _) =
                    select(COLUMNS, origins, window, Some(20)).unwrap_or_else(|e| panic!("{e}"));
                let lines = plan(&conn, &sql).unwrap_or_else(|e| panic!("{e}"));
                // Walking the open tasks' own index is reading only what is asked about.
                let whole = whole_reads(&lines, "task", &["task_open_origin"]);
                assert!(whole.is_empty(), "{window:?} {visible:?}: {lines:?}");
                if window != Window::Any || visible.is_some() {
                    assert!(
                        lines.iter().all(|line| !line.starts_with("SCAN task")),
                        "{window:?} {visible:?} walks every open task: {lines:?}"
                    );
                }
                // One person's question reads their chats' tasks (and those of no chat), never
                // everyone's tasks in the window.
                if visible.is_some() {
                    let searches: Vec<&String> = lines
                        .iter()
                        .filter(|line| line.starts_with("SEARCH task USING INDEX task_open"))
                        .collect();
                    assert!(!searches.is_empty(), "{window:?}: {lines:?}");
                    assert!(
                        searches
                            .iter()
                            .all(|line| line.contains("origin_thread_id=?")),
                        "{window:?} reads tasks of chats not asked about: {lines:?}"
                    );
                }
            }
        }
    }
}
