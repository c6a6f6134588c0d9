ALTER TABLE `motor_logs` ADD `kind` text DEFAULT 'legacy' NOT NULL;--> statement-breakpoint
ALTER TABLE `motor_logs` ADD `params` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- Existing entries were written as English sentences. Read the ones the hub wrote back into a
-- kind and its parameters (common/motor-log-event.ts, docs/motor-log.md); what cannot be read
-- stays `legacy` with its text. `message` keeps the sentence. Helper tables are dropped at the end.
CREATE TABLE `motor_log_clock` (`text` text PRIMARY KEY NOT NULL, `minute` integer NOT NULL);
--> statement-breakpoint
-- Every minute of the day as the hub wrote it ("12:05 AM", "1:30 PM"), to read times back exactly.
INSERT INTO `motor_log_clock` (`text`, `minute`)
WITH RECURSIVE `minutes`(`m`) AS (SELECT 0 UNION ALL SELECT `m` + 1 FROM `minutes` WHERE `m` < 1439)
SELECT
  (CASE WHEN (`m` / 60) % 12 = 0 THEN 12 ELSE (`m` / 60) % 12 END) || ':' || printf('%02d', `m` % 60) || (CASE WHEN `m` < 720 THEN ' AM' ELSE ' PM' END),
  `m`
FROM `minutes`;
--> statement-breakpoint
CREATE TABLE `motor_log_failure_texts` (`text` text PRIMARY KEY NOT NULL, `code` text NOT NULL);
--> statement-breakpoint
-- The hub's refusals as it wrote them inside schedule entries (without their full stop).
INSERT INTO `motor_log_failure_texts` (`text`, `code`) VALUES
  ('Device is offline. Check its power and network, then try again', 'offline'),
  ('Please wait for cooldown', 'cooldown'),
  ('Another command is in progress. Please wait', 'busy'),
  ('The device did not confirm the command. Check the motor status and try again', 'timeout'),
  ('The device went offline before confirming the command. The motor may have switched', 'linkLost'),
  ('The device refused the command', 'rejected'),
  ('Phase fault detected. Motor operation is disabled until the phase is OK', 'phaseFault'),
  ('There is no mains power at the pump', 'noSupply');
--> statement-breakpoint
CREATE TABLE `motor_log_reason_texts` (`text` text PRIMARY KEY NOT NULL, `reason` text NOT NULL);
--> statement-breakpoint
INSERT INTO `motor_log_reason_texts` (`text`, `reason`) VALUES
  ('dry run that the box did not stop', 'dryRunNotStopped'),
  ('overcurrent that the box did not stop', 'overCurrentNotStopped'),
  ('it restarted by itself after a power cut', 'restartedAfterPowerCut'),
  ('safety', 'safety');
--> statement-breakpoint
-- Fixed sentences.
UPDATE `motor_logs` SET
  `kind` = CASE `message`
    WHEN 'Motor is ON but draws no current.' THEN 'noCurrent'
    WHEN 'Dry run detected. Motor turned OFF automatically.' THEN 'tripDryRun'
    WHEN 'Overcurrent detected. Motor turned OFF!' THEN 'tripOverCurrent'
    WHEN 'Phase fault detected. Motor operation is disabled.' THEN 'phaseFault'
    WHEN 'Phase is OK now.' THEN 'phaseOk'
    WHEN 'Power cut at the pump. Motor stopped.' THEN 'powerLost'
    WHEN 'Power is back at the pump. The motor stays OFF until someone switches it on.' THEN 'powerRestored'
  END,
  `params` = CASE `message`
    WHEN 'Dry run detected. Motor turned OFF automatically.' THEN json_object('current', NULL)
    WHEN 'Overcurrent detected. Motor turned OFF!' THEN json_object('current', NULL)
    WHEN 'Phase fault detected. Motor operation is disabled.' THEN json_object('phase', NULL, 'detail', NULL)
    ELSE '{}'
  END
WHERE `message` IN (
  'Motor is ON but draws no current.',
  'Dry run detected. Motor turned OFF automatically.',
  'Overcurrent detected. Motor turned OFF!',
  'Phase fault detected. Motor operation is disabled.',
  'Phase is OK now.',
  'Power cut at the pump. Motor stopped.',
  'Power is back at the pump. The motor stays OFF until someone switches it on.'
);
--> statement-breakpoint
-- "Motor turned ON (switched at the box)": the box stated its relay.
WITH `stated` AS (
  SELECT `id`,
    CASE WHEN `message` LIKE 'Motor turned ON (%' THEN 'on' ELSE 'off' END AS `relay`,
    CASE substr(`message`, instr(`message`, '(') + 1, length(`message`) - instr(`message`, '(') - 1)
      WHEN 'switched at the box' THEN 'manual'
      WHEN 'by the box''s schedule' THEN 'boxSchedule'
      WHEN 'box restarted' THEN 'restart'
      WHEN 'reported by the box' THEN 'reported'
      WHEN 'reported by the box when it reconnected' THEN 'reconnected'
      WHEN 'restarted by the box after the power cut' THEN 'afterPowerCut'
    END AS `how`
  FROM `motor_logs`
  WHERE `kind` = 'legacy' AND (`message` LIKE 'Motor turned ON (%)' OR `message` LIKE 'Motor turned OFF (%)')
)
UPDATE `motor_logs` SET `kind` = 'stated', `params` = json_object('relay', `stated`.`relay`, 'how', `stated`.`how`)
FROM `stated` WHERE `stated`.`id` = `motor_logs`.`id` AND `stated`.`how` IS NOT NULL;
--> statement-breakpoint
-- Commands: "Motor turned ON <origin>[ (confirmed late)]" and "Motor ON <origin>: the box did not
-- confirm it (...)". Their origin ("from the app", "by schedule (6:00 AM, daily)", "by the
-- server: <why>") is read apart, once for both.
CREATE TABLE `motor_log_commands` (
  `id` integer PRIMARY KEY NOT NULL,
  `kind` text NOT NULL,
  `relay` text NOT NULL,
  `outcome_key` text NOT NULL,
  `outcome` text NOT NULL,
  `origin_text` text NOT NULL,
  `origin` text
);
--> statement-breakpoint
INSERT INTO `motor_log_commands` (`id`, `kind`, `relay`, `outcome_key`, `outcome`, `origin_text`)
WITH `switched` AS (
  SELECT `id`,
    CASE WHEN `message` LIKE 'Motor turned ON %' THEN 'on' ELSE 'off' END AS `relay`,
    substr(`message`, CASE WHEN `message` LIKE 'Motor turned ON %' THEN length('Motor turned ON ') ELSE length('Motor turned OFF ') END + 1) AS `rest`
  FROM `motor_logs`
  WHERE `kind` = 'legacy' AND (`message` LIKE 'Motor turned ON %' OR `message` LIKE 'Motor turned OFF %')
),
`confirmed` AS (
  SELECT `id`, `relay`,
    CASE
      WHEN `rest` LIKE '% (confirmed late)' THEN 'late'
      WHEN `rest` LIKE '% (confirmed when the box reconnected)' THEN 'onReconnect'
      ELSE 'inTime'
    END AS `confirmed`,
    CASE
      WHEN `rest` LIKE '% (confirmed late)' THEN substr(`rest`, 1, length(`rest`) - length(' (confirmed late)'))
      WHEN `rest` LIKE '% (confirmed when the box reconnected)' THEN substr(`rest`, 1, length(`rest`) - length(' (confirmed when the box reconnected)'))
      ELSE `rest`
    END AS `origin_text`
  FROM `switched`
)
SELECT `id`, 'switched', `relay`, 'confirmed', `confirmed`,
  -- The server's switches ended with a full stop: "by the server: <why>."
  CASE WHEN `origin_text` LIKE 'by the server: %.' THEN substr(`origin_text`, 1, length(`origin_text`) - 1) ELSE `origin_text` END
FROM `confirmed`;
--> statement-breakpoint
INSERT INTO `motor_log_commands` (`id`, `kind`, `relay`, `outcome_key`, `outcome`, `origin_text`)
WITH `unconfirmed` AS (
  SELECT `id`, `message`,
    CASE WHEN `message` LIKE 'Motor ON %' THEN 'on' ELSE 'off' END AS `relay`,
    CASE WHEN `message` LIKE 'Motor ON %' THEN length('Motor ON ') ELSE length('Motor OFF ') END + 1 AS `start`
  FROM `motor_logs`
  WHERE `kind` = 'legacy'
    AND (`message` LIKE 'Motor ON %' OR `message` LIKE 'Motor OFF %')
    AND (
      substr(`message`, -length(': the box did not confirm it (the motor may be running).')) = ': the box did not confirm it (the motor may be running).'
      OR substr(`message`, -length(': the box did not confirm it (the motor may still be running).')) = ': the box did not confirm it (the motor may still be running).'
      OR substr(`message`, -length(': the box went offline before confirming it (the motor may be running).')) = ': the box went offline before confirming it (the motor may be running).'
      OR substr(`message`, -length(': the box went offline before confirming it (the motor may still be running).')) = ': the box went offline before confirming it (the motor may still be running).'
    )
)
SELECT `id`, 'unconfirmed', `relay`, 'why',
  CASE WHEN `message` LIKE '%: the box went offline before confirming it (%' THEN 'linkLost' ELSE 'noAnswer' END,
  substr(`message`, `start`, instr(`message`, ': the box ') - `start`)
FROM `unconfirmed`;
--> statement-breakpoint
UPDATE `motor_log_commands` SET `origin` = json_object('by', 'app') WHERE `origin_text` = 'from the app';
--> statement-breakpoint
UPDATE `motor_log_commands`
SET `origin` = json_object('by', 'scheduleOff', 'afterMinutes', CAST(substr(`origin_text`, length('by schedule (after ') + 1) AS INTEGER))
WHERE `origin_text` LIKE 'by schedule (after % minutes)';
--> statement-breakpoint
-- "by schedule (6:00 AM, daily)", "by schedule (6:00 AM, once, for 30 minutes)".
WITH `notes` AS (
  SELECT `id`, substr(`origin_text`, length('by schedule (') + 1, length(`origin_text`) - length('by schedule (') - 1) AS `note`
  FROM `motor_log_commands`
  WHERE `origin_text` LIKE 'by schedule (%)' AND `origin_text` NOT LIKE 'by schedule (after %'
),
`parts` AS (
  SELECT `id`, substr(`note`, 1, instr(`note`, ', ') - 1) AS `clock`, substr(`note`, instr(`note`, ', ') + 2) AS `tail`
  FROM `notes` WHERE instr(`note`, ', ') > 0
),
`schedules` AS (
  SELECT `parts`.`id`, `motor_log_clock`.`minute`,
    CASE WHEN `tail` LIKE 'daily%' THEN 'daily' ELSE 'once' END AS `repeat`,
    CASE WHEN `tail` LIKE '%, for % minutes' THEN CAST(substr(`tail`, instr(`tail`, ', for ') + length(', for ')) AS INTEGER) END AS `for_minutes`
  FROM `parts` JOIN `motor_log_clock` ON `motor_log_clock`.`text` = `parts`.`clock`
  WHERE `tail` IN ('daily', 'once') OR `tail` LIKE 'daily, for % minutes' OR `tail` LIKE 'once, for % minutes'
)
UPDATE `motor_log_commands`
SET `origin` = json_object('by', 'schedule', 'minuteOfDay', `schedules`.`minute`, 'repeat', `schedules`.`repeat`, 'forMinutes', `schedules`.`for_minutes`)
FROM `schedules` WHERE `schedules`.`id` = `motor_log_commands`.`id`;
--> statement-breakpoint
UPDATE `motor_log_commands`
SET `origin` = json_object('by', 'server', 'reason', `motor_log_reason_texts`.`reason`)
FROM `motor_log_reason_texts`
WHERE `motor_log_commands`.`origin_text` = 'by the server: ' || `motor_log_reason_texts`.`text`;
--> statement-breakpoint
UPDATE `motor_logs`
SET `kind` = `motor_log_commands`.`kind`,
  `params` = json_object('relay', `motor_log_commands`.`relay`, 'origin', json(`motor_log_commands`.`origin`), `motor_log_commands`.`outcome_key`, `motor_log_commands`.`outcome`)
FROM `motor_log_commands`
WHERE `motor_log_commands`.`id` = `motor_logs`.`id` AND `motor_log_commands`.`origin` IS NOT NULL;
--> statement-breakpoint
UPDATE `motor_logs`
SET `kind` = 'runningWithoutCommand',
  `params` = json_object('current', CAST(substr(`message`, length('Motor is running without a confirmed command (') + 1,
    length(`message`) - length('Motor is running without a confirmed command (') - length(' A).')) AS REAL))
WHERE `kind` = 'legacy'
  AND substr(`message`, 1, length('Motor is running without a confirmed command (')) = 'Motor is running without a confirmed command ('
  AND substr(`message`, -length(' A).')) = ' A).';
--> statement-breakpoint
WITH `faults` AS (
  SELECT `id`, substr(`message`, length('Phase fault detected: ') + 1,
    length(`message`) - length('Phase fault detected: ') - length('. Motor operation is disabled.')) AS `detail`
  FROM `motor_logs`
  WHERE `kind` = 'legacy'
    AND substr(`message`, 1, length('Phase fault detected: ')) = 'Phase fault detected: '
    AND substr(`message`, -length('. Motor operation is disabled.')) = '. Motor operation is disabled.'
    AND length(`message`) > length('Phase fault detected: . Motor operation is disabled.')
)
UPDATE `motor_logs`
SET `kind` = 'phaseFault',
  `params` = json_object('phase', CASE `faults`.`detail` WHEN 'Phase R missing' THEN 'R' WHEN 'Phase Y missing' THEN 'Y' WHEN 'Phase B missing' THEN 'B' END, 'detail', `faults`.`detail`)
FROM `faults` WHERE `faults`.`id` = `motor_logs`.`id`;
--> statement-breakpoint
UPDATE `motor_logs`
SET `kind` = 'serverOffFailed', `params` = json_object('reason', `motor_log_reason_texts`.`reason`)
FROM `motor_log_reason_texts`
WHERE `motor_logs`.`kind` = 'legacy'
  AND `motor_logs`.`message` = 'The server could not switch the motor OFF (' || `motor_log_reason_texts`.`text` || '). Check the pump.';
--> statement-breakpoint
UPDATE `motor_logs`
SET `kind` = 'mobileNoChanged',
  `params` = json_object('mobileNo', substr(`message`, length('Mobile number changed to ') + 1,
    length(`message`) - length('Mobile number changed to ') - length('. The box restarts.')))
WHERE `kind` = 'legacy' AND `message` LIKE 'Mobile number changed to %. The box restarts.';
--> statement-breakpoint
UPDATE `motor_logs`
SET `kind` = 'otaDone', `params` = json_object('version', substr(`message`, length('Firmware updated to ') + 1, length(`message`) - length('Firmware updated to ') - 1))
WHERE `kind` = 'legacy' AND `message` LIKE 'Firmware updated to %.' AND instr(`message`, ' ') > 0 AND instr(substr(`message`, length('Firmware updated to ') + 1), ' ') = 0;
--> statement-breakpoint
UPDATE `motor_logs`
SET `kind` = 'otaStarted',
  `params` = json_object('version', substr(`message`, length('Firmware update to ') + 1, length(`message`) - length('Firmware update to ') - length(' started.')))
WHERE `kind` = 'legacy' AND `message` LIKE 'Firmware update to % started.' AND instr(substr(`message`, length('Firmware update to ') + 1), ' ') = length(`message`) - length('Firmware update to ') - length(' started.') + 1;
--> statement-breakpoint
-- "Firmware update to <version> refused: <reason>." and "... failed: <reason>.": the version has no spaces.
WITH `ota` AS (
  SELECT `id`, substr(`message`, length('Firmware update to ') + 1) AS `rest`
  FROM `motor_logs`
  WHERE `kind` = 'legacy' AND (`message` LIKE 'Firmware update to % refused: %.' OR `message` LIKE 'Firmware update to % failed: %.')
),
`split` AS (
  SELECT `id`, substr(`rest`, 1, instr(`rest`, ' ') - 1) AS `version`, substr(`rest`, instr(`rest`, ' ')) AS `after`
  FROM `ota`
),
`reasons` AS (
  SELECT `id`, `version`, 'otaRefused' AS `kind`, substr(`after`, length(' refused: ') + 1, length(`after`) - length(' refused: ') - 1) AS `reason`
  FROM `split` WHERE `after` LIKE ' refused: %.'
  UNION ALL
  SELECT `id`, `version`, 'otaFailed', substr(`after`, length(' failed: ') + 1, length(`after`) - length(' failed: ') - 1)
  FROM `split` WHERE `after` LIKE ' failed: %.'
)
UPDATE `motor_logs`
SET `kind` = `reasons`.`kind`,
  `params` = CASE
    WHEN `reasons`.`kind` = 'otaRefused' THEN
      json_object('version', `reasons`.`version`, 'error', CASE WHEN `reasons`.`reason` = 'the box refused it' THEN NULL ELSE `reasons`.`reason` END)
    WHEN `reasons`.`reason` = 'no answer from the box within 10 minutes' THEN
      json_object('version', `reasons`.`version`, 'reason', 'timeout', 'error', NULL, 'firmware', NULL)
    WHEN `reasons`.`reason` LIKE 'the box restarted with %' THEN
      json_object('version', `reasons`.`version`, 'reason', 'otherVersion', 'error', NULL, 'firmware', substr(`reasons`.`reason`, length('the box restarted with ') + 1))
    WHEN `reasons`.`reason` = 'the box reported a failure' THEN
      json_object('version', `reasons`.`version`, 'reason', 'box', 'error', NULL, 'firmware', NULL)
    ELSE json_object('version', `reasons`.`version`, 'reason', 'box', 'error', `reasons`.`reason`, 'firmware', NULL)
  END
FROM `reasons` WHERE `reasons`.`id` = `motor_logs`.`id`;
--> statement-breakpoint
-- "Scheduled ON at 5:30 AM was missed: <why>." and "... was not carried out: <refusal>."
WITH `runs` AS (
  SELECT `id`, `message`,
    CASE WHEN `message` LIKE 'Scheduled ON at %' THEN 'on' ELSE 'off' END AS `action`,
    substr(`message`, instr(`message`, ' at ') + length(' at '), instr(`message`, ' was ') - instr(`message`, ' at ') - length(' at ')) AS `clock`
  FROM `motor_logs`
  WHERE `kind` = 'legacy' AND (`message` LIKE 'Scheduled ON at % was %' OR `message` LIKE 'Scheduled OFF at % was %')
),
`missed` AS (
  SELECT `runs`.`id`, `action`, `motor_log_clock`.`minute`,
    CASE substr(`message`, instr(`message`, ' was missed: ') + length(' was missed: '))
      WHEN 'the device was offline.' THEN 'offline'
      WHEN 'the server could not run it on time.' THEN 'late'
    END AS `reason`
  FROM `runs` JOIN `motor_log_clock` ON `motor_log_clock`.`text` = `runs`.`clock`
  WHERE `message` LIKE '% was missed: %'
)
UPDATE `motor_logs`
SET `kind` = 'scheduleMissed', `params` = json_object('action', `missed`.`action`, 'minuteOfDay', `missed`.`minute`, 'reason', `missed`.`reason`)
FROM `missed` WHERE `missed`.`id` = `motor_logs`.`id` AND `missed`.`reason` IS NOT NULL;
--> statement-breakpoint
WITH `runs` AS (
  SELECT `id`, `message`,
    CASE WHEN `message` LIKE 'Scheduled ON at %' THEN 'on' ELSE 'off' END AS `action`,
    substr(`message`, instr(`message`, ' at ') + length(' at '), instr(`message`, ' was ') - instr(`message`, ' at ') - length(' at ')) AS `clock`,
    substr(`message`, instr(`message`, ' was not carried out: ') + length(' was not carried out: '),
      length(`message`) - instr(`message`, ' was not carried out: ') - length(' was not carried out: ')) AS `refusal`
  FROM `motor_logs`
  WHERE `kind` = 'legacy' AND (`message` LIKE 'Scheduled ON at % was not carried out: %.' OR `message` LIKE 'Scheduled OFF at % was not carried out: %.')
),
`refused` AS (
  SELECT `runs`.`id`, `action`, `motor_log_clock`.`minute`,
    CASE WHEN `motor_log_failure_texts`.`code` IS NULL
      THEN json_object('code', 'rejected', 'error', `refusal`)
      ELSE json_object('code', `motor_log_failure_texts`.`code`, 'error', NULL)
    END AS `failure`
  FROM `runs`
  JOIN `motor_log_clock` ON `motor_log_clock`.`text` = `runs`.`clock`
  LEFT JOIN `motor_log_failure_texts` ON `motor_log_failure_texts`.`text` = `runs`.`refusal`
)
UPDATE `motor_logs`
SET `kind` = 'scheduleNotRun', `params` = json_object('action', `refused`.`action`, 'minuteOfDay', `refused`.`minute`, 'failure', json(`refused`.`failure`))
FROM `refused` WHERE `refused`.`id` = `motor_logs`.`id`;
--> statement-breakpoint
-- "Scheduled switch-off (after 30 minutes) failed: <refusal>. Trying again every minute." and "... was given up ..."
WITH `offs` AS (
  SELECT `id`, `message`,
    CAST(substr(`message`, length('Scheduled switch-off (after ') + 1) AS INTEGER) AS `minutes`,
    substr(`message`, instr(`message`, ') failed: ') + length(') failed: '),
      length(`message`) - instr(`message`, ') failed: ') - length(') failed: ') - length('. Trying again every minute.') + 1) AS `refusal`
  FROM `motor_logs`
  WHERE `kind` = 'legacy'
    AND substr(`message`, 1, length('Scheduled switch-off (after ')) = 'Scheduled switch-off (after '
    AND instr(`message`, ' minutes) failed: ') > 0
    AND substr(`message`, -length('. Trying again every minute.')) = '. Trying again every minute.'
)
UPDATE `motor_logs`
SET `kind` = 'scheduleOffFailed',
  `params` = json_object('afterMinutes', `offs`.`minutes`, 'failure', CASE WHEN `motor_log_failure_texts`.`code` IS NULL
    THEN json_object('code', 'rejected', 'error', `offs`.`refusal`)
    ELSE json_object('code', `motor_log_failure_texts`.`code`, 'error', NULL)
  END)
FROM `offs` LEFT JOIN `motor_log_failure_texts` ON `motor_log_failure_texts`.`text` = `offs`.`refusal`
WHERE `offs`.`id` = `motor_logs`.`id`;
--> statement-breakpoint
UPDATE `motor_logs`
SET `kind` = 'scheduleOffGivenUp', `params` = json_object('afterMinutes', CAST(substr(`message`, length('Scheduled switch-off (after ') + 1) AS INTEGER))
WHERE `kind` = 'legacy'
  AND substr(`message`, 1, length('Scheduled switch-off (after ')) = 'Scheduled switch-off (after '
  AND substr(`message`, -length(' minutes) was given up after a day of failed attempts. Check the pump.'))
    = ' minutes) was given up after a day of failed attempts. Check the pump.';
--> statement-breakpoint
-- Whatever is left keeps its sentence, shown as written.
UPDATE `motor_logs` SET `params` = json_object('text', `message`) WHERE `kind` = 'legacy';
--> statement-breakpoint
DROP TABLE `motor_log_commands`;
--> statement-breakpoint
DROP TABLE `motor_log_reason_texts`;
--> statement-breakpoint
DROP TABLE `motor_log_failure_texts`;
--> statement-breakpoint
DROP TABLE `motor_log_clock`;
