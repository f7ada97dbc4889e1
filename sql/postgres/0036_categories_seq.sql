-- The PostgreSQL twin of sql/sqlite/0036_categories_seq.sql: categories' `seq`, their insert
-- order, which SQLite read from its rowid and PostgreSQL has no column for. Numbers come from
-- a sequence in a BEFORE INSERT trigger of the same name as SQLite's (the schemas keep the same
-- triggers); an insert that names its seq (promo copy's) keeps it and moves the sequence past
-- it. Existing rows are numbered by (created_at, id), the order the list gave them before.
CREATE SEQUENCE categories_seq_numbers;
ALTER TABLE categories ADD COLUMN seq bigint NOT NULL DEFAULT 0;
UPDATE categories c SET seq = o.n
  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM categories) o
 WHERE o.id = c.id;
SELECT setval('categories_seq_numbers', max(seq)) FROM categories HAVING max(seq) > 0;
CREATE INDEX categories_seq ON categories (seq);

CREATE FUNCTION categories_seq() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.seq = 0 THEN
    NEW.seq := nextval('categories_seq_numbers');
  ELSE
    PERFORM setval('categories_seq_numbers', NEW.seq) FROM categories_seq_numbers WHERE last_value < NEW.seq;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER categories_seq BEFORE INSERT ON categories
  FOR EACH ROW EXECUTE FUNCTION categories_seq();
