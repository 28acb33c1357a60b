/**
 * Backups and restores (README.md here; docs/operations.md is the operator's guide): the admin
 * API's consistent backup of the running server, and the restore into an empty installation,
 * PGlite or PostgreSQL. restore.ts is imported by the CLI on its own (it opens the target itself).
 */
export { BACKUP_FORMAT, type BackupHeader, DamagedBackupError, readBackup } from './backup-format.ts';
export { backupRoutes } from './backup-routes.ts';
export { type BackupService, createBackupService } from './backup-service.ts';
