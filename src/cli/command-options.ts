import { Option } from 'commander';

/** The options most commands share: the database file, and JSON on stdout. */
export const dbOption = () => new Option('--db <path>', 'SQLite database file (env PROMO_DB, default ./promo.db)');
export const jsonOption = () => new Option('--json', 'print JSON on stdout');
