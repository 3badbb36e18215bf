-- Values no door of Donna's stores, which a database may hold from before `donna import` checked
-- them as her doors do (or from a counter whose `+ 1` overflowed SQLite's integers into REAL,
-- which no read takes): brought within the bounds every door applies (src/tasks/fields.rs), so
-- no list, no feed and no tick fails on them. Counters saturate at 0..=1000000; an estimate
-- outside 1..=100000 minutes is dropped (no completion check-in rather than one in 10^15
-- minutes); a rule more often than daily is stopped (kept, so an export still shows it), as of
-- its creation.
UPDATE task SET nudge_count = CASE WHEN nudge_count < 0 THEN 0 ELSE 1000000 END
    WHERE NOT (typeof(nudge_count) = 'integer' AND nudge_count BETWEEN 0 AND 1000000);
UPDATE task SET unanswered_nudges = CASE WHEN unanswered_nudges < 0 THEN 0 ELSE 1000000 END
    WHERE NOT (typeof(unanswered_nudges) = 'integer' AND unanswered_nudges BETWEEN 0 AND 1000000);
UPDATE task SET reschedule_count = CASE WHEN reschedule_count < 0 THEN 0 ELSE 1000000 END
    WHERE NOT (typeof(reschedule_count) = 'integer' AND reschedule_count BETWEEN 0 AND 1000000);
UPDATE task SET estimated_duration_minutes = NULL
    WHERE estimated_duration_minutes IS NOT NULL
    AND NOT (typeof(estimated_duration_minutes) = 'integer'
             AND estimated_duration_minutes BETWEEN 1 AND 100000);
UPDATE automation SET stopped_at = created_at
    WHERE stopped_at IS NULL
    AND (upper(rrule) LIKE '%FREQ=SECONDLY%'
         OR upper(rrule) LIKE '%FREQ=MINUTELY%'
         OR upper(rrule) LIKE '%FREQ=HOURLY%');
