import { freshDbFile } from '../../support/db.js';
import { crashSuite } from './crash.suite.js';

crashSuite('webhooks across a crash', async () => freshDbFile());
