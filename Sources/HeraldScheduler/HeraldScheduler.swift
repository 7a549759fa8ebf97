// HeraldScheduler: UILocalNotification-style schedules — recurrence, regions, the 64 limit.
