package storetest

// SkipNotice is why a test that needs another file system is skipped.
const SkipNotice = "NOTICE: no folder on another file system here (no tmpfs /dev/shm, and mounting one is not allowed): the copy backup is tested only through the store's internal option"
