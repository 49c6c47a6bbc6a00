#!/usr/bin/env node
// Throwaway research harness: plays David N. Hill's JSMinesweeper solver (files in /tmp/hill/js,
// third-party reference code, loaded unmodified) on given Expert layouts, the way main.js bulkRun() drives it.
//
// usage: node hill_play.js LAYOUTS.bin FIRST COUNT OUT.jsonl [FORCE.json]
//   FORCE.json: optional {game index: cell or [k, cell]}; that game's first (k-th, from 0) guess is
//   played at the cell instead; with ONLY_FORCED=1 in the environment the other games are skipped
//   LAYOUTS.bin: raw uint8, shape (games, cells), row-major, cell = row*WIDTH + col, 1 = mine, the first cell mine-free
"use strict";

const fs = require("fs");
const path = require("path");
const vm = require("vm");

// HILL_ROW as in common.py: width, height, mines, first click (row, col); the zero rows'
// layouts leave the first cell's neighbours free, so the first click opens them (the solver
// is not told the rule, and needs not be: the opened cells say it)
const ROWS = { expert: [30, 16, 99, 0, 0], "16x16": [16, 16, 40, 0, 0], "9x9": [9, 9, 10, 0, 0],
               "16x16z": [16, 16, 40, 2, 2], "9x9z": [9, 9, 10, 2, 2], expertz: [30, 16, 99, 3, 3] };
const [WIDTH, HEIGHT, MINES, START_R, START_C] = ROWS[process.env.HILL_ROW || "expert"];
const CELLS = WIDTH * HEIGHT;
const JS_DIR = process.env.HILL_JS || "/tmp/hill/js";   // the solver's files (README)

// ---------------------------------------------------------------------------------------------
// keep real clocks / output for the harness itself before neutralising them for the solver
const hrnow = () => Number(process.hrtime.bigint()) / 1e6;   // ms, harness timing only
const stderrWrite = (s) => process.stderr.write(s);

// ---------------------------------------------------------------------------------------------
// Determinism: the solver must not see wall-clock time or unseeded randomness.
//  * Date.now() is used by the solver in ProbabilityEngine.process() (this.duration), which solver_main.js
//    compares with 50 ms ("if (pe.duration < 50) tieBreak(...) else play the first candidate").
//    Date.now is replaced by a constant, so pe.duration is always 0 and the tie-break always runs.
//  * performance.now() (BruteForceAnalysis timing log only) also returns a constant.
//  * Math.random() is used by BruteForceAnalysis.js SolutionTable (random 32-bit hash per solution,
//    used to detect "linked" tiles). It is replaced by a seeded generator, reseeded per game from the game index.
Date.now = () => 0;
try { globalThis.performance.now = () => 0; } catch (e) { /* ignore */ }
let rngState = 1;
function seedRandom(g) {
    // mulberry32 seeded from the game index
    rngState = (Math.imul((g >>> 0) ^ 0x9E3779B9, 0x85EBCA6B) ^ 0x2545F491) >>> 0;
}
Math.random = function () {
    rngState = (rngState + 0x6D2B79F5) >>> 0;
    let t = rngState;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

// the solver logs a lot through console.*; silence it (harness output goes straight to stderr/out file)
let consoleErrors = 0;
console.log = () => {};
console.info = () => {};
console.warn = () => {};
console.debug = () => {};
console.error = (...a) => { consoleErrors++; if (consoleErrors <= 5) stderrWrite("[solver console.error] " + a.join(" ") + "\n"); };

// ---------------------------------------------------------------------------------------------
// Stubs for the browser globals (from main.js / the page) that the solver files touch at load or solve time.
vm.runInThisContext(`
var showMessage = function (text) { };                  // main.js: writes to the page's message bar
var sleep = function (ms) { return Promise.resolve(); }; // main.js: setTimeout based pause, only used to let the page repaint
const BOMB = 9;                                          // main.js constant (used by Brute_force.js / BruteForceAnalysis.js)
var analysisMode = false;                                // main.js: false when playing (read by the probability engine)
var oldrng = false;                                      // main.js: read by JSF() in MinesweeperGame.js
var binomialCache;                                       // main.js: created in startup()
var board = null;                                        // main.js global 'board' (LongTermRiskHelper / SolutionCounter refer to it)
function __hillSetBoard(b) { board = b; }
`, { filename: "hill_stubs.js" });

const FILES = [
    "PrimeSieve.js", "Binomial.js",             // ../Utility
    "Tile.js", "Board.js", "MinesweeperGame.js",
    "solver_probability_engine.js", "SolutionCounter.js",
    "BruteForceAnalysis.js", "Brute_force.js",
    "EfficiencyHelper.js", "LongTermRiskHelper.js",
    "solver_main.js",
];
for (const f of FILES) {
    vm.runInThisContext(fs.readFileSync(path.join(JS_DIR, f), "utf8"), { filename: f });
}

// as in main.js startup():  const BINOMIAL = new Binomial(MAX_BINOMIAL_N, 500); binomialCache = new BinomialCache(5000, 500, BINOMIAL);
vm.runInThisContext(`
binomialCache = new BinomialCache(5000, 500, new Binomial(65000, 500));
globalThis.__hill = { ServerGame, Board, solver, applyResults, IN_PLAY, WON, LOST,
                      ACTION_CLEAR, ACTION_FLAG, ACTION_CHORD, PLAY_STYLE_NOFLAGS, setBoard: __hillSetBoard };
`, { filename: "hill_init.js" });
const H = globalThis.__hill;

// ---------------------------------------------------------------------------------------------
async function playGame(g, mines) {

    seedRandom(g);

    // options exactly as main.js bulkRun()
    const options = {};
    options.playStyle = H.PLAY_STYLE_NOFLAGS;
    options.verbose = false;
    options.advancedGuessing = true;
    options.fullProbability = true;
    options.hardcore = false;

    // ServerGame from MinesweeperGame.js, then the layout is imposed with its own resetMinesUsingArray()
    // (array = width, height, mines, x1, y1, x2, y2, ...), game type "safe" as in bulkRun (classic; it only
    // shapes the discarded generated layout)
    const startIndex = START_R * WIDTH + START_C;
    const game = new H.ServerGame(0, WIDTH, HEIGHT, MINES, startIndex, g + 1, "safe");
    const arr = [WIDTH, HEIGHT, MINES];
    for (let i = 0; i < CELLS; i++) {
        if (mines[i]) { arr.push(i % WIDTH); arr.push(Math.floor(i / WIDTH)); }
    }
    game.resetMinesUsingArray(arr);

    const board = new H.Board(0, WIDTH, HEIGHT, MINES, g + 1, "safe");
    H.setBoard(board);

    const seq = [];
    let guesses = 0, certainMines = 0;

    let tile = game.getTile(startIndex);
    let revealedTiles = game.clickTile(tile);     // the first click (the row's cell), not counted as a solver move
    H.applyResults(board, revealedTiles);

    let loopCheck = 0, stuck = false;
    while (revealedTiles.header.status == H.IN_PLAY) {

        loopCheck++;
        if (loopCheck > 10000) { stuck = true; break; }   // same guard as bulkRun

        const reply = await H.solver(board, options);
        const actions = reply.actions;

        for (let i = 0; i < actions.length; i++) {
            const action = actions[i];

            if (action.action == H.ACTION_CHORD) {
                // bulkRun only logs "Got a chord request!"
            } else if (action.action == H.ACTION_FLAG) {
                // bulkRun only logs "Got a flag request!" (no-flag play style)
            } else {
                if (i == 0 || action.prob == 1) {
                    let index = board.xy_to_index(action.x, action.y);
                    const f = FORCED[g];   // a cell (the first guess) or [k, cell] (the k-th guess, from 0)
                    if (action.prob != 1 && f !== undefined) {
                        if (Array.isArray(f) ? guesses == f[0] : guesses == 0) index = Array.isArray(f) ? f[1] : f;
                    }
                    tile = game.getTile(index);
                    const wasCovered = tile.isCovered();
                    revealedTiles = game.clickTile(tile);

                    if (wasCovered || revealedTiles.header.status == H.LOST) {   // a no-op click on an already revealed tile is not recorded
                        if (action.prob == 1) {
                            seq.push([index, "c", null]);
                            if (revealedTiles.header.status == H.LOST) certainMines++;
                        } else {
                            seq.push([index, "g", action.prob]);
                            guesses++;
                        }
                    }

                    if (revealedTiles.header.status != H.IN_PLAY) {
                        break;
                    }
                    H.applyResults(board, revealedTiles);
                }
                if (action.prob != 1) {  // do no more actions after a guess
                    break;
                }
            }
        }
    }

    const rec = { g: g, won: revealedTiles.header.status == H.WON ? 1 : 0, guesses: guesses, moves: seq.length, seq: seq };
    if (certainMines) rec.cm = certainMines;
    if (stuck) rec.stuck = 1;
    return rec;
}

let FORCED = {};
async function main() {
    const argv = process.argv.slice(2);
    if (argv.length != 4 && argv.length != 5) {
        stderrWrite("usage: node hill_play.js LAYOUTS.bin FIRST COUNT OUT.jsonl [FORCE.json]\n");
        process.exit(2);
    }
    const [file, firstS, countS, out, force] = argv;
    if (force) FORCED = JSON.parse(fs.readFileSync(force, "utf8"));
    const first = parseInt(firstS, 10), count = parseInt(countS, 10);
    const size = fs.statSync(file).size;
    if (size % CELLS != 0) throw new Error("layout file size " + size + " is not a multiple of " + CELLS);
    const total = size / CELLS;
    if (!(first >= 0 && count >= 0 && first + count <= total)) throw new Error("range " + first + "+" + count + " outside 0.." + total);

    await H.solver();   // as main.js startup(): initialisation request (sets solver.countSolutions)

    const fd = fs.openSync(file, "r");
    const outFd = fs.openSync(out, "w");
    const buf = Buffer.alloc(CELLS);

    let done = 0, won = 0, cm = 0, stuckN = 0;
    const t0 = hrnow();
    let lineBuf = [];
    for (let g = first; g < first + count; g++) {
        fs.readSync(fd, buf, 0, CELLS, g * CELLS);
        let n = 0;
        for (let i = 0; i < CELLS; i++) { if (buf[i] > 1) throw new Error("game " + g + ": bad cell value"); n += buf[i]; }
        const s0 = START_R * WIDTH + START_C;
        if (n != MINES || buf[s0] != 0) throw new Error("game " + g + ": " + n + " mines, first cell=" + buf[s0]);

        if (process.env.ONLY_FORCED == "1" && FORCED[g] === undefined) continue;
        const rec = await playGame(g, buf);
        done++; won += rec.won; cm += rec.cm || 0; stuckN += rec.stuck || 0;
        lineBuf.push(JSON.stringify(rec));
        if (lineBuf.length >= 100) { fs.writeSync(outFd, lineBuf.join("\n") + "\n"); lineBuf = []; }

        if (done % 1000 == 0 || done == count) {
            const ms = (hrnow() - t0) / done;
            stderrWrite(`[hill] games ${done}/${count} (g ${first}..${g}) won ${won} = ${(100 * won / done).toFixed(2)}%  ` +
                `certain-clear-mines ${cm}  stuck ${stuckN}  ${ms.toFixed(1)} ms/game\n`);
        }
    }
    if (lineBuf.length) fs.writeSync(outFd, lineBuf.join("\n") + "\n");
    fs.closeSync(outFd);
    fs.closeSync(fd);
    stderrWrite(`[hill] done: ${done} games, won ${won} (${done ? (100 * won / done).toFixed(2) : "n/a"}%), ` +
        `certain clears that hit a mine: ${cm}, stuck: ${stuckN}, solver console.error calls: ${consoleErrors}\n`);
}

main().catch((e) => { stderrWrite("[hill] FATAL " + (e && e.stack || e) + "\n"); process.exit(1); });
