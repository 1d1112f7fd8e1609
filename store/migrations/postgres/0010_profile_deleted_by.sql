-- Twin of ../0010_profile_deleted_by.sql: who deleted a profile.
ALTER TABLE profiles ADD COLUMN deleted_by BIGINT REFERENCES users (id) ON DELETE SET NULL;

UPDATE profiles SET deleted_by = COALESCE(
    (SELECT a.actor_id FROM audit_log a
      WHERE a.entity = 'profile' AND a.entity_id = profiles.id AND a.action = 'delete'
      ORDER BY a.id DESC LIMIT 1),
    user_id)
WHERE delete_at IS NOT NULL;
