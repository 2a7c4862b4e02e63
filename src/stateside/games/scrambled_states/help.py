"""Scrambled States' rules page (Help > Rules), in our own words, with what is our design."""
from __future__ import annotations

from stateside.games.scrambled_states.ai import LEVELS
from stateside.games.scrambled_states.rules import Settings

HELP_HTML = """
<h2>Scrambled States</h2>
<p>A race, not a turn game: everybody plays at once. Be the first to collect
<b>10 cards</b> (you can choose another number under <i>New game</i>).</p>
<h3>The table</h3>
<p>Fifteen state cards lie face up: you see them in the row under the map, and the same
states are coloured and outlined on the map. The other cards wait in a face-down draw pile.
Every card shows four things:</p>
<ul>
<li><b>Region</b> &ndash; the colour of the card's frame, with the region's name in the bottom band:
Midwest (purple), New England (dark navy), South Central (orange), Mid-Atlantic (green),
Mountain (yellow), Southeast (teal), Pacific (red). On the map the outline has the same colour.</li>
<li><b>Land mass</b> &ndash; 1 to 4 brown bars (the bars a larger state would have are dashed): under 20,000 square
miles, 20,000&ndash;49,999,
50,000&ndash;99,999, and 100,000 or more (Census total area, land and water): more bars, more land.</li>
<li><b>Population</b> &ndash; 1 to 5 people: under 1 million, 1&ndash;1.9 million, 2&ndash;4.9 million,
5&ndash;9.9 million, 10 million or more (2020 Census).</li>
<li><b>State colour</b> &ndash; the colour of the state's shape on the card (and on the map), with a pattern
so that it can be told without colour: red (plain), blue (stripes), yellow (dots), green (diagonal lines),
purple (cross-hatch).</li>
</ul>
<h3>A round</h3>
<p>The top card of the draw pile becomes the <b>center card</b> and the die rolls. When it lands, race:</p>
<ul>
<li><b>Region, Land Mass, Population, State Colour</b>: slap a face-up card that has the same feature as the center
card.</li>
<li><b>2</b>: slap a card that has at least two of the four features in common with the center card.</li>
<li><b>Hand</b>: slap the center card itself.</li>
</ul>
<p>To slap, click the state on the map or its card in the row. If no face-up card matches, the first to call
<b>No Match</b> (the button or the Space bar) wins the center card.</p>
<p>A correct slap wins that card; the center card takes its place on the table and a new round begins.
For a moment the won card stays in view with the winner's name on it (and on the map), so you can see what
a computer took and why; the message panel explains the match.</p>
<h3>Mistakes and ties</h3>
<ul>
<li><b>Slip slap</b>: slap a wrong card, or call No Match when a card matches, and you sit out the rest of the
round. The others keep looking. Computer players obey the same rule.</li>
<li><b>Tie</b>: if two players slap different correct cards within {tie_ms} milliseconds, both keep their
cards. The empty places are filled with the center card and the next card of the draw pile.</li>
</ul>
<h3>Our additions</h3>
<p>The cards are our own design: the regions are made of whole Census divisions (the South Atlantic is cut at
the Potomac, so Delaware and Maryland are Mid-Atlantic), the colours are a map colouring in which
neighbouring states never share a colour, and land mass and population are worked out from the official
figures. Where the printed rules say nothing, we decided: a round that nobody wins (everybody slipped, or
{limit_s} seconds pass; rounds of a practice game or of a game of people only have no time limit) is dropped and its
card stays under the center pile; when the draw pile runs out, whoever
has the most cards wins (equal counts share the win).</p>
<h3>Computer players</h3>
<p>Each level has its own reaction time: {levels} on an ordinary round (quicker on Hand, slower on
&ldquo;2&rdquo; and slowest to be sure that nothing matches). They never react faster than their level
allows, the easier ones now and then slap a near miss or call No Match too soon, and they sit out after a
slip like everyone else.</p>
<p>Why these times: a race to 10 cards turns a small edge in each round into a near-certain win, so
opponents that are always a little slower (or faster) than you are no fun either way. Our levels overlap
the 1&ndash;3 seconds a person typically needs and each other. In simulated games against a person who
usually needs about 1.8 s, <b>easy</b> loses nearly every game but still takes about one card in five,
<b>medium</b> is a real contest (the person wins about two games in three), and <b>hard</b> wins most
games while the person still takes about a third of the cards; a quick player (about 1.2 s) beats hard
more often than not.</p>
<p><b>Beginner</b>, the level a new game starts with, is slower than a first-time player: it usually needs
{beginner_s} a round, where a newcomer needs about 3 seconds (our estimate from studies of how fast people search
a display for a target, written down with its sources beside the card data). Start with one beginner computer, move up
to easy when you win
comfortably. <a name="practice"></a><b>Practice</b> (under <i>New game</i>) makes every round untimed: no round is
dropped for time,
so you can study the cards, and the computers give you a head start of {head_start_s} seconds each round
before they look (after that they play at their level, which shows you the answer).</p>
<a name="party"></a><h3>Party play</h3>
<p>Two people share the keyboard: player 1 buzzes with <b>A</b>, player 2 with <b>L</b>. The first to buzz then
has {buzz_s} seconds to click a card, the center card, or No Match; running out of time counts as a slip slap. Computer
opponents can
join a party; they hold back while a person has the buzzer.</p>
<h3>Online</h3>
<p><i>Game &gt; Play online&hellip;</i> seats each player at their own screen (computers are run by the
server). The server's clock decides: the first slap to <b>arrive</b> wins, so play on a server near everyone.
Your slap shows as <i>sent</i> until the table confirms it; one that arrives after its round ended is refused
and the message says so. An online race cannot be paused; <i>Game &gt; Leave the online table</i> gives your
seat up (the others wait until someone takes it with the table code).</p>
<h3>The move log and replays</h3>
<p>The panel lists every move, newest last, in its player's colour: each round as the die lands,
every slap, call and buzz (the computers' too) and who won which card. Point at a line to see its cards
outlined on the map and in the row; click it to keep them shown. When a game ends, the final scores
appear with <b>Replay this game</b>; <i>Game &gt; Replay&hellip;</i> also opens a saved game. A replay
steps through the moves (Left, Right, Home, End, Space to play) without touching your game, which
waits paused.</p>
<p>A state just won gets its winner's name tag, which comes down onto it; View &gt; Animations sets how fast (or turns
it off).</p>
<h3>Keys</h3>
<p><b>Space</b>: No Match (or start and resume) &middot; <b>Esc</b>: pause &middot; type a state's name or postal
code on the map and press Enter to slap it &middot; party play: <b>A</b> and <b>L</b> buzz. There is no undo:
it is a race, and a slap once made stands.</p>
"""


def help_html(head_start_ms: int) -> str:
    """The page, with the figures the game really uses (its default options, the levels'
    times, the practice head start)."""
    s = Settings(())   # the default options
    levels = ", ".join(f"{name} usually {lo:.1f}&ndash;{hi:.1f} s (never under {lv.min_ms / 1000:g} s)"
                       for name, lv in LEVELS.items() for lo, hi in [lv.usual_range()])
    lo, hi = LEVELS["beginner"].usual_range()
    return HELP_HTML.format(tie_ms=s.tie_window_ms, limit_s=s.round_limit_ms // 1000, levels=levels,
                            beginner_s=f"{lo:.1f}&ndash;{hi:.1f} s",
                            buzz_s=f"{s.buzz_window_ms / 1000:g}",
                            head_start_s=f"{head_start_ms / 1000:g}")
