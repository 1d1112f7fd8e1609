-- Twin of ../0037_report_leads.sql: reports take the entity 'lead' (a CHECK changed in place).
ALTER TABLE reports DROP CONSTRAINT reports_entity_check;
ALTER TABLE reports ADD CONSTRAINT reports_entity_check CHECK (entity IN ('profile', 'comment', 'lead'));
