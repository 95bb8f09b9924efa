// Sabaki's own GTP library (@sabaki/gtp, the npm package Sabaki drives engines with) against
// tengen, the way Sabaki uses it: the start-up burst, state syncs through
// ControllerStateTracker (pipelined plays, undos), kata-analyze interrupted by
// protocol_version, kata-genmove_analyze for every move of a whole 9x9 game, Sabaki's parsing
// of the info lines, and quit within Sabaki's 3 s. Run by sabaki.sh.
//   node sabaki.js TENGEN LOG
const {Controller, ControllerStateTracker} = require('@sabaki/gtp')
const assert = require('assert')

const [tengen, log] = process.argv.slice(2)
const size = 9

// Sabaki's parseAnalysis (src/modules/enginesyncer.js): info segments, the PV as the trailing
// run of vertices, key/value pairs before it; segments without move or winrate are dropped.
function parseAnalysis(line) {
  return line
    .split(/\s*info\s+/)
    .slice(1)
    .map(segment => {
      const [head, pv = ''] = segment.split(/\s+pv\s+/)
      const words = head.trim().split(/\s+/)
      const entry = {}
      for (let i = 0; i + 1 < words.length; i += 2) entry[words[i]] = words[i + 1]
      entry.pv = pv.trim().split(/\s+/)
      return entry
    })
    .filter(e => /^[A-Za-z]\d+$/.test(e.move || '') && e.winrate != null)
}

async function main() {
  const controller = new Controller(tengen, [
    '--threads', '1', '--playouts', '300', '--log-file', log, '--log-level', 'debug'
  ])
  controller.start()
  const tracker = new ControllerStateTracker(controller)
  const send = (name, ...args) => controller.sendCommand({name, args})

  // The start-up burst, all at once.
  const [name, version, protocol, list] = await Promise.all(
    ['name', 'version', 'protocol_version', 'list_commands'].map(n => send(n))
  )
  assert.strictEqual(name.content, 'tengen')
  assert.ok(version.content.length > 0 && !version.error)
  assert.strictEqual(protocol.content, '2')
  const commands = list.content.split('\n')
  for (const needed of ['kata-analyze', 'kata-genmove_analyze', 'undo', 'set_free_handicap'])
    assert.ok(commands.includes(needed), `list_commands lacks ${needed}`)

  // A sync as Sabaki does it when it attaches to a game in progress.
  let history = ['E5', 'C3', 'G5', 'C6'].map((v, i) => ({
    name: 'play',
    args: [i % 2 ? 'W' : 'B', v]
  }))
  await tracker.sync({komi: 7.5, boardsize: [size, size], history})

  // Analysis until Sabaki's next command (protocol_version) interrupts it.
  const seen = []
  const analysisLines = []
  const analysis = controller.sendCommand({name: 'kata-analyze', args: ['B', '20']}, ({line}) =>
    analysisLines.push(line)
  )
  await new Promise(resolve => setTimeout(resolve, 1500))
  const interrupt = send('protocol_version')
  assert.ok(!(await analysis).error)
  assert.strictEqual((await interrupt).content, '2')
  const parsed = analysisLines.flatMap(parseAnalysis)
  assert.ok(parsed.length > 0, `no analysis Sabaki could read: ${analysisLines.slice(0, 3)}`)
  for (const e of parsed) {
    const winrate = Number(e.winrate)
    assert.ok(winrate >= 0 && winrate <= 1, `kata winrate ${e.winrate}`)
    assert.ok(Number(e.visits) > 0 && e.scoreLead != null && e.pv.length > 0)
    assert.ok(Number(e.lcb) >= 0, `lcb ${e.lcb}`)
  }
  seen.push(`${parsed.length} candidate moves read`)

  // Undo two moves the way Sabaki navigates back: a sync to a shorter history.
  history = history.slice(0, 2)
  await tracker.sync({komi: 7.5, boardsize: [size, size], history})

  // A whole game: every move through kata-genmove_analyze, as Sabaki asks for moves.
  let passes = 0
  let moves = 0
  let ended = null
  while (moves < 2 * size * size) {
    const color = history.length % 2 ? 'W' : 'B'
    const lines = []
    const response = await controller.sendCommand(
      {name: 'kata-genmove_analyze', args: [color, '20']},
      ({line}) => lines.push(line)
    )
    assert.ok(!response.error, `kata-genmove_analyze ${color}: ${response.content}`)
    const play = lines.map(l => l.match(/^play (\S+)/)).find(m => m)
    assert.ok(play, `no play line in ${lines.slice(-2)}`)
    const move = play[1].toUpperCase()
    moves++
    if (move === 'RESIGN') {
      ended = `${color} resigned`
      break
    }
    history = [...history, {name: 'play', args: [color, move === 'PASS' ? 'pass' : move]}]
    // The tracker learns the move from the command itself, as in Sabaki.
    await tracker.sync({komi: 7.5, boardsize: [size, size], history})
    passes = move === 'PASS' ? passes + 1 : 0
    if (passes === 2) {
      ended = 'two passes'
      break
    }
  }
  assert.ok(ended, `no end after ${moves} moves`)
  const score = await send('final_score')
  assert.ok(/^(B\+|W\+|0$)/.test(score.content), `final_score ${score.content}`)

  // tengen's board must hold the stones of Sabaki's history, replayed in a fresh engine.
  const stones = async ctl => {
    const [b, w] = await Promise.all(
      ['black', 'white'].map(c => ctl.sendCommand({name: 'list_stones', args: [c]}))
    )
    return `black: ${b.content.split(/\s+/).sort().join(' ')}; white: ${w.content
      .split(/\s+/).sort().join(' ')}`
  }
  const fresh = new Controller(tengen, ['--player', 'random'])
  fresh.start()
  const freshTracker = new ControllerStateTracker(fresh)
  await freshTracker.sync({komi: 7.5, boardsize: [size, size], history})
  const [live, replayed] = [await stones(controller), await stones(fresh)]
  assert.strictEqual(live, replayed)
  await fresh.stop()

  // Detach: quit, and the process is gone well within Sabaki's 3 s.
  const started = Date.now()
  await controller.stop(3000)
  assert.ok(controller.process == null, 'tengen still runs after quit')
  console.log(
    `sabaki: PASS: ${seen.join(', ')}; a ${moves}-move game ended by ${ended}, ` +
      `${score.content}; boards equal; quit in ${Date.now() - started} ms`
  )
}

main().catch(err => {
  console.error(`sabaki: FAIL: ${err.stack || err}`)
  process.exit(1)
})
