// Flight logs from CSV: the one reading of a file (src/modules/flight-logs/csv-rules.ts) that `fleetops import-logs`
// (src/modules/flight-logs/csv.ts) and the console's import (console/src/csv.ts) share. The unit tests need no
// browser and no database; the last block sends what the console reads through the API, as the import page does,
// and compares it with what the CLI's import makes of the same file.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid, oneLineMessage, ValidationError } from '../src/errors.js';
import { csvTextRead, csvTextWritten } from '../src/lib/csv-text.js';
import { importFlightLogsCsv } from '../src/modules/flight-logs/csv.js';
import { CsvError, figureFromText, numberFromText, readLogsCsv, rowFaultMessage, rowInput } from '../src/modules/flight-logs/csv-rules.js';
import { parseLogsCsv } from '../console/src/csv.js';
import { createServices } from '../src/context.js';
import { scopedPrisma } from '../src/db/scoped.js';
import { createTestEnv, flightLogBody, type TestEnv } from './helpers.js';

const HEAD = 'timeDate,pilot,aircraftId,aircraftRegistration,startLocation,endLocation';
const CELLS = '2026-04-06T08:00:00Z,acme-pilot,acme-ac-1,VH-ACM,YSSY,YSBK';
const ACM = {
  uid: 'acme-ac-1',
  maintenanceTrackingItems: { hobbs: { displayText: 'Hobbs', type: 'number', precision: 1 }, landings: { displayText: 'Landings', type: 'number' } },
  logTrackingItems: { fuelUplift: { displayText: 'Fuel uplift', type: 'number' }, remarks: { displayText: 'Remarks', type: 'string' } },
};
const read = (text: string) => readLogsCsv(text, parse);
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof CsvError ? e.message : `not a CsvError: ${String(e)}`;
  }
  return 'not refused';
};
/** A one-row file's input (or its fault) as the shared rules read it. */
const input = (head: string, cells: string, aircraft: typeof ACM | null = ACM) => {
  const { header, rows } = read(`${head}\n${cells}`);
  return rowInput(rows[0], header, aircraft);
};

describe('the shared rules (csv-rules.ts)', () => {
  it('refuse a header that names a column twice, a __proto__ column, a missing required column; an invalid CSV', () => {
    expect(refusal(() => read(`${HEAD},hobbs,landings,hobbs\n${CELLS},1.5,1,150`))).toBe('the header row names the column hobbs twice');
    expect(refusal(() => read(`${HEAD},__proto__\n${CELLS},7`))).toBe('the header row names a column __proto__: __proto__ is not allowed as a key');
    expect(refusal(() => read(`timeDate,aircraftId,aircraftRegistration,startLocation,endLocation\n2026-04-06T08:00:00Z,acme-ac-1,VH-ACM,YSSY,YSBK`))).toBe('the header row has no pilot column');
    expect(refusal(() => read(`${HEAD},hobbs\n${CELLS}`))).toMatch(/^not a valid CSV file: /);
    // a header alone is no flight: nothing is required of it
    expect(read('timeDate,hobbs\n').rows).toEqual([]);
  });

  // Found by the CLI audit (twenty-first session): a Latin-1 file (a spreadsheet's plain "CSV" on Windows) was imported
  // with `José` stored as `Jos\uFFFD` for good; a header `timeDate, pilot` had "no pilot column"; a file separated
  // by semicolons was "Invalid Record Length" with no word of why.
  it('refuse a file that is not UTF-8 at its line; read names with spaces around them; say a file looks separated by semicolons', () => {
    const NOT_UTF8 = (line: number) => `the file is not UTF-8 text (line ${line} holds bytes that are not): save it as UTF-8 (a spreadsheet's "CSV UTF-8", an editor's "UTF-8") and import it again; nothing was imported`;
    const latin1 = Buffer.from(`${HEAD},notes\r\n${CELLS},caf\u00e9\r\n`, 'latin1').toString('utf8');
    expect(refusal(() => read(latin1))).toBe(NOT_UTF8(2));
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${HEAD}\n${CELLS}\n`, 'utf16le')]).toString('utf8');
    expect(refusal(() => read(utf16))).toBe(NOT_UTF8(1));
    expect(refusal(() => read(Buffer.from(`${HEAD}\n${CELLS}\n`, 'utf16le').toString('utf8')))).toBe(NOT_UTF8(1)); // no byte order mark
    // a NUL in a row is that row's (the API refuses it at its cell), not the file's encoding
    expect(read(`${HEAD},notes\n${CELLS},a\u0000b\n`).rows).toHaveLength(1);
    // the same text as UTF-8 (with its byte order mark) is read
    expect(read(Buffer.from(`\uFEFF${HEAD},notes\r\n${CELLS},caf\u00e9\r\n`, 'utf8').toString('utf8')).rows[0].cells.notes).toBe('caf\u00e9');
    const spaced = read(`${HEAD.split(',').join(', ')}, hobbs \n${CELLS},1.5`);
    expect(spaced.header).toEqual([...HEAD.split(','), 'hobbs']);
    expect(spaced.rows[0].cells.pilot).toBe('acme-pilot');
    const semicolons = ' (the header row is one column holding semicolons: the file looks separated by semicolons; save it separated by commas)';
    expect(refusal(() => read(`${HEAD.replaceAll(',', ';')}\n${CELLS.replaceAll(',', ';')}`))).toBe(`the header row has no timeDate column${semicolons}`);
    expect(refusal(() => read(`${HEAD.replaceAll(',', ';')};hobbs\n${CELLS.replaceAll(',', ';')};1,5`))).toMatch(new RegExp(`^not a valid CSV file: .*${semicolons.replace(/[()]/g, '\\$&')}$`));
  });

  // Before, an export wrote `=SUM(A1)` as `'=SUM(A1)` (so no spreadsheet runs it) and an import kept the quote: each
  // export and load back added one to every text starting with = + - @ (CLI audit, twenty-first session).
  it('read text as an export wrote it: the quote put before a formula-looking text is taken off, and only that one', () => {
    const texts = ['=SUM(A1)', "'=x", "''=x", "'x", "''", '-- see tech log', '+61 400', '@home', '\tindented', 'plain', "it's", ''];
    for (const t of texts) expect(csvTextRead(csvTextWritten(t)), JSON.stringify(t)).toBe(t);
    expect(texts.map(csvTextWritten)).toEqual(["'=SUM(A1)", "''=x", "'''=x", "'x", "''", "'-- see tech log", "'+61 400", "'@home", "'\tindented", 'plain', "it's", '']);
    const row = read(`${HEAD},notes,remarks,hobbs\n${CELLS},'=SUM(A1),'-- see tech log,-0.5`).rows[0];
    expect(rowInput(row, row && Object.keys(row.cells), ACM)).toEqual({
      input: expect.objectContaining({ notes: '=SUM(A1)', remarks: '-- see tech log', hobbs: -0.5 }),
    });
  });

  it('number a row by the line it starts on, and name the server-controlled columns it ignores', () => {
    const csv = read([`uid,${HEAD},notes,createdAt`, `x,${CELLS},"first line`, 'second line",y', `x,${CELLS},one line,y`, `x,${CELLS},,y`].join('\n'));
    expect(csv.rows.map((r) => r.line)).toEqual([2, 4, 5]);
    // empty lines before a row are not the row's; a Windows file (CRLF, a quoted cell's line break too) or an old
    // Mac one (CR) is numbered as its lines are (each row was a line early after a blank line, and a line late after
    // a quoted CRLF)
    for (const eol of ['\n', '\r\n', '\r']) {
      const lines = [`uid,${HEAD},notes,createdAt`, `x,${CELLS},one,y`, '', `x,${CELLS},"first line`, 'second line",y', '', '', `x,${CELLS},last,y`];
      const rows = read(lines.join(eol)).rows;
      expect(rows.map((r) => r.line), JSON.stringify(eol)).toEqual([2, 4, 8]);
      expect(rows[1].cells.notes).toBe('first line\nsecond line');
    }
    expect(csv.ignoredColumns).toEqual(['uid', 'createdAt']);
  });

  it('refuse a pax or a tracking figure that no double holds exactly, past a double’s range too, in the API’s words at the cell', () => {
    const inexact = (text: string, read: string) =>
      `the number ${text} cannot be kept exactly (it would be read as ${read}); ${/Infinity/.test(read) || read === '0' ? 'send 0 or a number whose size is between 1e-300 and 1e308' : 'send at most 15 significant digits'}`;
    // a 17-digit pax was sent as the nearest double (12345678901234568), which the API then took
    expect(input(`${HEAD},pax,hobbs`, `${CELLS},12345678901234567,1`)).toEqual({ fault: { path: '/pax', message: inexact('12345678901234567', '12345678901234568') } });
    // past a double's range (JSON would carry it as null): refused alike, pax (was sent as text) and tracking figure (was a range message)
    expect(input(`${HEAD},pax,hobbs`, `${CELLS},1,-1e400`)).toEqual({ fault: { path: '/hobbs', message: inexact('-1e400', '-Infinity') } });
    expect(input(`${HEAD},pax,hobbs`, `${CELLS},1e400,1`)).toEqual({ fault: { path: '/pax', message: inexact('1e400', 'Infinity') } });
    expect(input(`${HEAD},pax,hobbs`, `${CELLS}, +1e999 ,1`)).toEqual({ fault: { path: '/pax', message: inexact('+1e999', 'Infinity') } });
    expect(input(`${HEAD},pax,hobbs`, `${CELLS},1,12345678901234567`)).toEqual({ fault: { path: '/hobbs', message: inexact('12345678901234567', '12345678901234568') } });
    // a pax is taken as written whatever its places (the API judges it), as the console takes it
    expect(input(`${HEAD},pax,hobbs`, `${CELLS},2.1234567,1`)).toEqual({ input: expect.objectContaining({ pax: 2.1234567 }) });
    expect(input(`${HEAD},pax,hobbs`, `${CELLS},+3,1E+2`)).toEqual({ input: expect.objectContaining({ pax: 3, hobbs: 100 }) });
    expect(numberFromText('123456789012345', '/x')).toEqual({ value: 123456789012345 });
    expect(numberFromText('1e-400', '/x')).toEqual({ fault: { path: '/x', message: inexact('1e-400', '0') } });
  });

  it('read a figure in decimal notation only, with at most 6 decimal places, checked on its digits', () => {
    for (const text of ['0x10', '0b11', '0o7', '12 h', 'Infinity', '1_000', '.5']) expect(figureFromText(text, 'hobbs')).toEqual({ value: text });
    expect(figureFromText('1.00000000000000001', 'hobbs')).toEqual({ fault: { path: '/hobbs', message: 'hobbs must have at most 6 decimal places' } });
    expect(figureFromText('1E-7', 'hobbs')).toHaveProperty('fault');
    expect(figureFromText('2.5000000', 'hobbs')).toEqual({ value: 2.5 });
    expect(figureFromText('25E-1', 'hobbs')).toEqual({ value: 2.5 });
    expect(figureFromText('-0.3', 'hobbs')).toEqual({ value: -0.3 });
  });

  it('type the cells of the aircraft’s number items and pax; leave text as text; an empty cell is absent, an empty pax null', () => {
    expect(input(`${HEAD},pax,hobbs,fuelUplift,remarks,notes,uid`, `${CELLS},2, 12.75 ,0x10,0x10,0x10,u-1`)).toEqual({
      input: { timeDate: '2026-04-06T08:00:00Z', pilot: 'acme-pilot', aircraftId: 'acme-ac-1', aircraftRegistration: 'VH-ACM', startLocation: 'YSSY', endLocation: 'YSBK', pax: 2, hobbs: 12.75, fuelUplift: '0x10', remarks: '0x10', notes: '0x10' },
    });
    expect(input(`${HEAD},pax,hobbs,remarks`, `${CELLS},,,`)).toEqual({ input: expect.objectContaining({ pax: null }) });
    expect(input(`${HEAD},pax,hobbs,remarks`, `${CELLS},,,`)).not.toHaveProperty('input.hobbs');
    // a key the aircraft does not declare, or declares through its prototype only, is text for the API to judge
    expect(input(`${HEAD},pax,tacho,constructor`, `${CELLS},1,1.5,2`)).toEqual({ input: expect.objectContaining({ tacho: '1.5', constructor: '2' }) });
    // no aircraft found: every tracking cell is text
    expect(input(`${HEAD},pax,hobbs`, `${CELLS},1,1.5`, null)).toEqual({ input: expect.objectContaining({ hobbs: '1.5' }) });
    expect(input(`${HEAD},pax`, `${CELLS},0x2`)).toEqual({ input: expect.objectContaining({ pax: '0x2' }) });
  });

  it('read a file without a pax column as pax null', () => {
    expect(input(`${HEAD},hobbs`, `${CELLS},1`)).toEqual({ input: expect.objectContaining({ pax: null, hobbs: 1 }) });
  });

  it('make the first refused cell the row’s fault, in the words of the API’s 400 for one field', () => {
    const r = input(`${HEAD},pax,hobbs,landings`, `${CELLS},1.00000000000000001,1.00000000000000001,1`);
    expect(r).toEqual({ fault: { path: '/pax', message: 'the number 1.00000000000000001 cannot be kept exactly (it would be read as 1); send at most 15 significant digits' } });
    const fault = { path: '/hobbs', message: 'hobbs must have at most 6 decimal places' };
    expect(rowFaultMessage(fault)).toBe('invalid flight log: /hobbs: hobbs must have at most 6 decimal places');
    let thrown: unknown;
    try {
      invalid('flight log', [fault]);
    } catch (e) {
      thrown = e;
    }
    expect(oneLineMessage(thrown as ValidationError)).toBe(rowFaultMessage(fault));
  });
});

describe('the console’s parse (console/src/csv.ts)', () => {
  const parseOne = (head: string, cells: string) => parseLogsCsv(`${head}\n${cells}\n`, [ACM]).rows[0];

  it('D1: leaves 0x10, 0b11 and 0o7 as text (the API refuses them), refuses more than 6 decimal places as the row’s error', () => {
    for (const cell of ['0x10', '0b11', '0o7']) expect(parseOne(`${HEAD},pax,hobbs`, `${CELLS},1,${cell}`).input).toMatchObject({ hobbs: cell });
    const row = parseOne(`${HEAD},pax,hobbs`, `${CELLS},1,1.00000000000000001`);
    expect(row).toEqual({ line: 2, error: 'invalid flight log: /hobbs: hobbs must have at most 6 decimal places' });
    expect(parseOne(`${HEAD},pax,hobbs`, `${CELLS},1,1.5`).input).toMatchObject({ pax: 1, hobbs: 1.5 });
  });

  it('D2: refuses a header naming a column twice, or a __proto__ column, with the CLI’s words', () => {
    expect(refusal(() => parseLogsCsv(`${HEAD},hobbs,hobbs\n${CELLS},1.5,2.5\n`, [ACM]))).toBe('the header row names the column hobbs twice');
    expect(refusal(() => parseLogsCsv(`${HEAD},__proto__\n${CELLS},7\n`, [ACM]))).toMatch(/__proto__ is not allowed as a key/);
  });

  it('D3: reads a file without a pax column as pax null', () => {
    expect(parseOne(`${HEAD},hobbs`, `${CELLS},1`).input).toMatchObject({ pax: null, hobbs: 1 });
  });

  it('numbers a row by the line it starts on', () => {
    const { rows } = parseLogsCsv([`${HEAD},pax,notes`, `${CELLS},1,"first line`, 'second line"', `${CELLS},1,one line`].join('\n'), [ACM]);
    expect(rows.map((r) => r.line)).toEqual([2, 4]);
  });
});

describe('the console and `fleetops import-logs` read one file alike', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('the same rows are imported and the same lines rejected with the same messages', async () => {
    const hobbs = ['0x10', '0b11', '1.00000000000000001', '2.5000000', ' 1.25 ', '', '1e9999999', '12 h'];
    const row = (i: number, h: string, pax = '1', reg = 'VH-ACM') => `2026-05-0${1 + i}T0${i}:00:00Z,acme-pilot,acme-ac-1,${reg},YSSY,YSBK,${pax},${h},1`;
    const csv = [
      `${HEAD},pax,hobbs,landings`,
      ...hobbs.map((h, i) => row(i, h)),
      row(8, '1', '1e9999999'),
      row(9, '1', '0x2'),
      row(9, '1', '1', 'VH-WRONG'),
      row(9, '1', '12345678901234567'),
    ].join('\n');
    const totals = async () => (await env.rest.get('/aircraft/acme-ac-1')).body.totals;

    // the console: rows refused as read are not sent; the others go through the batch mutation, as the import page does
    const t0 = await totals();
    const aircraft = (await env.gql(`{ aircraftList { data { uid maintenanceTrackingItems logTrackingItems } } }`)).body.data.aircraftList.data;
    const parsed = parseLogsCsv(csv, aircraft);
    const toSend = parsed.rows.filter((r) => r.input);
    const sent = await env.gql(`mutation($items: JSON!) { createFlightLogs(items: $items) { results { uid } errors { index error } } }`, { items: toSend.map((r) => r.input) });
    const batch = sent.body.data.createFlightLogs;
    const consoleRejected = [
      ...parsed.rows.flatMap((r) => (r.error !== undefined ? [{ line: r.line, error: r.error }] : [])),
      ...batch.errors.map((x: { index: number; error: string }) => ({ line: toSend[x.index].line, error: x.error })),
    ].sort((a, b) => a.line - b.line);
    const t1 = await totals();

    const s = createServices(scopedPrisma(env.database.prisma, env.a.id));
    const cli = await importFlightLogsCsv(s.flightLogs, csv, { aircraft: (uid) => s.aircraft.find(uid) });
    const t2 = await totals();

    expect(cli.rejected.map((r) => r.line)).toEqual([2, 3, 4, 8, 9, 10, 11, 12, 13]);
    expect(consoleRejected).toEqual(cli.rejected);
    expect(batch.results.length).toBe(cli.imported);
    // 2.5 + 1.25 + 1 (a row without hobbs adds none) each way
    expect([t1.hobbs - t0.hobbs, t2.hobbs - t1.hobbs].map((h) => Math.round(h * 1e6))).toEqual([3750000, 3750000]);
    // a cell no double holds exactly (past its range, or more digits than it keeps) is told as the API tells the same
    // digits in a JSON body (the CLI passed Infinity on; a 17-digit pax was sent rounded): the same path and words
    // (the batch names such an item's fault `invalid item: ...`, a row's is `invalid flight log: ...`)
    const told = async (field: string, digits: string) => {
      const body = JSON.stringify({ query: 'mutation($items: JSON!) { createFlightLogs(items: $items) { errors { index error } } }', variables: { items: [flightLogBody({ [field]: 0 })] } });
      const res = await env.request('POST', '/graphql', { body: body.replace(`"${field}":0`, `"${field}":${digits}`) });
      return (await res.json()).data.createFlightLogs.errors[0].error.replace(/^invalid item: /, 'invalid flight log: ');
    };
    expect(cli.rejected.find((r) => r.line === 8)?.error).toBe(await told('hobbs', '1e9999999'));
    expect(cli.rejected.find((r) => r.line === 10)?.error).toBe(await told('pax', '1e9999999'));
    expect(cli.rejected.find((r) => r.line === 13)?.error).toBe(await told('pax', '12345678901234567'));
    expect(cli.rejected.find((r) => r.line === 13)?.error).toBe(
      'invalid flight log: /pax: the number 12345678901234567 cannot be kept exactly (it would be read as 12345678901234568); send at most 15 significant digits',
    );
  });
});
