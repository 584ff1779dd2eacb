import { createTestApp } from "../tests/helpers/test_app.ts";
const t = await createTestApp();
const q = (kind: string, key: string, related: string) => `EXPLAIN QUERY PLAN SELECT v.seq, json_extract(v.data, '$.${key}') AS k, json_extract(r.data, '$.name')
 FROM registry_versions v INDEXED BY registry_versions_${kind}_key_idx LEFT JOIN registry_versions r ON r.entity_type = 'institution' AND r.entity_id = json_extract(v.data, '$.${related}') AND r.valid_from <= ? AND (r.valid_to IS NULL OR r.valid_to > ?)
 WHERE v.entity_type = '${kind}' AND v.valid_from <= ? AND (v.valid_to IS NULL OR v.valid_to > ?) AND json_extract(v.data, '$.${key}') >= ? AND (json_extract(v.data, '$.${key}') > ? OR v.seq > ?)
 ORDER BY json_extract(v.data, '$.${key}'), v.seq LIMIT ?`;
for (const [k, key, rel] of [["institution", "registrationNumber", "successorId"], ["routing_code", "code", "institutionId"]]) {
  const r = await t.deps.db.readClient.execute({ sql: q(k, key, rel), args: ["x", "x", "x", "x", "", "", 0, 10] });
  console.log(JSON.stringify(r.rows.map((row) => row.detail)));
}
await t.close();
