-- Twin of ../0074_users_admins.sql: the administrators counted from their own index.
CREATE INDEX users_admins ON users (id) WHERE role = 'admin';
