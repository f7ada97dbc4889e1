-- Every voucher a publication gave, one row each (sql/0027 kept a publication of several
-- vouchers findable through its first one only): the list's `voucher` filter and
-- GET /v1/vouchers/{code}/publications walk this key in created_at order, then read each
-- publication by its seq. A publication of one voucher (or a failed one that names a voucher)
-- has its voucher_code's row; one of several, a row per voucher of its `vouchers`.
-- Publications are never updated in these columns nor deleted, so the insert trigger is all.
CREATE TABLE publication_vouchers (
  voucher_code    TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  publication_seq INTEGER NOT NULL REFERENCES publications (seq),
  PRIMARY KEY (voucher_code, created_at, publication_seq)
) STRICT, WITHOUT ROWID;

INSERT INTO publication_vouchers (voucher_code, created_at, publication_seq)
  SELECT voucher_code, created_at, seq FROM publications WHERE vouchers IS NULL AND voucher_code IS NOT NULL
  UNION ALL
  SELECT json_extract(v.value, '$.code'), p.created_at, p.seq FROM publications AS p, json_each(p.vouchers) AS v WHERE p.vouchers IS NOT NULL;

CREATE TRIGGER publication_vouchers_insert AFTER INSERT ON publications
BEGIN
  INSERT INTO publication_vouchers (voucher_code, created_at, publication_seq)
    SELECT NEW.voucher_code, NEW.created_at, NEW.seq WHERE NEW.vouchers IS NULL AND NEW.voucher_code IS NOT NULL
    UNION ALL
    SELECT json_extract(value, '$.code'), NEW.created_at, NEW.seq FROM json_each(NEW.vouchers);
END;
