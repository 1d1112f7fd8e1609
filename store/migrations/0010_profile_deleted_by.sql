-- Who deleted a profile: an owner may restore only their own deletion, never an admin's (audit
-- L6). Profiles deleted before this migration take the deleter from the audit log, which
-- records admin deletions; the rest were deleted by their owners.
ALTER TABLE profiles ADD COLUMN deleted_by INTEGER REFERENCES users (id) ON DELETE SET NULL;

UPDATE profiles SET deleted_by = COALESCE(
    (SELECT a.actor_id FROM audit_log a
      WHERE a.entity = 'profile' AND a.entity_id = profiles.id AND a.action = 'delete'
      ORDER BY a.id DESC LIMIT 1),
    user_id)
WHERE delete_at IS NOT NULL;
