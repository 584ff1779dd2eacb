-- A routing code's cached lookup (RoutingCodeLookup) holds the version in force and when it ends. A
-- change scheduled for later writes no routing_codes row until it takes effect, yet it shortens the
-- cached version's validity: so versions of routing codes move the routing_codes epoch too.
CREATE TRIGGER change_epochs_routing_code_versions_after_insert AFTER INSERT ON registry_versions
WHEN NEW.entity_type = 'routing_code'
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'routing_codes'; END;
CREATE TRIGGER change_epochs_routing_code_versions_after_update AFTER UPDATE ON registry_versions
WHEN NEW.entity_type = 'routing_code'
BEGIN UPDATE change_epochs SET epoch = epoch + 1 WHERE topic = 'routing_codes'; END;
