"""Game of the States: the rules page (Help > Rules), in our own words, with the parts that
are our design (the spinner, the money, the product icons) and their sources."""
from __future__ import annotations

import html

from stateside.games.game_of_the_states import parts


def help_html() -> str:
    odds = parts.spinner_odds()
    move_odds = ", ".join(f"{k}: {round(v * 100)}%" for k, v in sorted(odds["move"].items()))
    price_odds = ", ".join(f"${k:,}" for k in odds["price"])
    sectors = " &middot; ".join(f"${s.price:,}/{s.move_text()}" for s in parts.sectors())
    cat = parts.catalogue()
    products = "".join(
        f"<tr><td>{parts.state_name(c)}</td>"
        f"<td>{', '.join(cat[p].name + ' (' + cat[p].icon + ')' for p in parts.products(c))}"
        f"</td><td><small>{html.escape(parts.products_source(c))}</small></td></tr>" for c in parts.state_codes())
    return f"""
<h2>Game of the States</h2>
<p>Three ways to play on one map, with 50 state cards and a spinner. Choose one with
<b>New game&hellip;</b> (also the players: 2 to 4, each a person or a computer).</p>

<a name="buy-and-sell"></a><h3>Buy and Sell</h3>
<ul>
<li><b>Setup.</b> Each player has four product disks and a truck of one colour and $5,000 (two $1,000,
five $500 and five $100 bills). Four cards are drawn for each player's disks and a fifth for the truck;
the cards go back to the bottom of the draw pile. Everyone spins: the highest price goes first (ties spin
again).</li>
<li><b>Moving.</b> Spin and move your truck 0 to 3 states toward a state with an opponent's disk (or, when
loaded, toward your destination). The states you may reach are highlighted; hover one to see the route,
click it to drive. You do not need the exact count to arrive. Alaska is reached only through Washington,
Hawaii only through California. Trucks pass through states with trucks and disks.</li>
<li><b>Buying.</b> Ending on an opponent's disk, you buy it: the owner names one of the state's products,
you spin the price on the outer band. The owner may accept or ask for one more spin, whose price must be
taken even if lower. You pay, load the disk and draw your destination card at once.</li>
<li><b>Delivering.</b> At the destination you sell the disk back to its owner: the owner spins and pays you
(you may ask for one more spin, which must be taken). The disk goes on its product's space on the
platform. Your turn ends there: the next disk is for the next turn.</li>
<li><b>Traffic Jam.</b> Your truck stays put until your next turn; a disk you carry is left on the state.
Another player with an empty truck who ends a move there takes it over: pays you $200, takes your card and
delivers it as usual. Buying back your own disk this way, you deliver it and put it on the platform
without a spin and collect $200 from the bank. If nobody takes it, it goes back in your truck at your next
turn.</li>
<li><b>The end.</b> When every disk is on the platform, the most money wins.</li>
</ul>
<p><b>Our decisions where the rulebook is silent.</b> The rulebook refers to a <i>Special Rule #3</i> for
the destination card but never prints it. It is not needed: every state where a disk or a truck was put at
the setup has its card at the bottom of the draw pile, below the destination cards a game draws, so a
destination never names a state with a disk for sale or the truck's own state. <b>Money:</b> a player short
of money pays all they have, and a disk bought that way sells back for no more than was paid for it (a
purchase can never earn more than it cost); a take-over costs $200, so a player with less cannot take
one over. With two things to do in one state (a disk for sale and a jammed disk) you choose one. Destination cards lie
face up. "Move toward" is kept
strictly: every move ends on a shortest route to a target, or on the target.</p>

<a name="trivia"></a><h3>Trivia</h3>
<p>Draw a card and ask the player on your left about one fact on it: nickname, population (in millions:
right within one million), capital, year settled, year it entered the union (the year only) or rank of
entry. A right answer wins the card; a wrong one passes to the next player on the left; if nobody is right
you keep the card. After all 50 cards the most cards wins. Answers are typed or, as a setting, picked
from four choices. A typed answer is taken as a fair quizmaster would: case, accents, punctuation,
"St."/"Saint", a leading "The", a missing "State" in a nickname, the state after a capital ("Saint Paul,
MN") and one typo in a name of five letters or more are forgiven (another state's capital or nickname is
never taken for a typo); a population is judged on the exact figure typed, in digits or words ("38.54",
"39,538,223", "about 39 million", "half a million"); a full date is fine where the year is asked
("September 9, 1850"), and a rank may be written out ("thirty-first"). <b>Year settled:</b> where
references date a state's first settlement differently (Pennsylvania: the Swedes in 1643 or William Penn's
Philadelphia in 1682), every documented year is right, and the answer shown names them all with the page
that documents each (the list: <code>resources/game_of_the_states/settled.yaml</code>). With several
people at one screen a "pass to" screen comes before the asker's card is shown, so that the others can
look away. Hawaii's card has no year settled.</p>

<a name="junior"></a><h3>Junior</h3>
<p>Each player's truck, loaded with one disk, starts on a home state drawn from the deck; four more cards
lie face down. Turn over a card, spin and drive there (no exact count needed); on arrival spin a sale and
collect it from the bank, then turn over the next card. After the fourth card go home: the first player
home collects a $500 bonus and a sale; the others play on until home (a sale, no bonus). The most money
wins. (There is no "better price" in Junior.) The only choice in Junior is the route, and every legal move
is on a shortest route, so the computer levels all play alike there.</p>

<h3>At the table</h3>
<p>The list of moves beside the map has every spin, card and move, the computers' too; point at one to
see it on the map. Game &gt; Undo takes back your own last choice while nothing has happened since (no
other player, no spin, no card): a spin seen is never taken back. Game &gt; Replay&hellip; steps through
a finished or saved game.</p>
<p><b>Moves you can follow.</b> A truck drives its road state by state, with the disk it carries (its product's letters
beside it). A dashed ring in a player's colour marks that player's last move on the map until their next. View &gt;
Animations sets the speed (Fast, Normal) or turns the moves off; a click or a key never waits for a move to end.</p>

<h3>Our parts</h3>
<p>The rulebook's board symbols, spinner and money are physical parts we do not have: these are our own
design (data in <code>resources/game_of_the_states/</code>).</p>
<p><b>The spinner:</b> twenty equal sectors, each with a price on the outer band and a move (or Traffic Jam)
inside. Moves: {move_odds}. Prices {price_odds}: 10% each. Clockwise from the top: {sectors}.</p>
<p><b>The money:</b> $5,000 per player in Buy and Sell as two $1,000, five $500 and five $100 bills;
Junior players start with none; the bank never runs out. Payments are shown as bills in the log.</p>
<p><b>The products</b> (1 to 4 per state, icons of our own; the platform has one space per product), with
the public sources they come from:</p>
<table cellspacing="2">{products}</table>
<h3>Computer players</h3>
<p>Buy and Sell. <b>Easy</b> accepts a price of $400 or more and drives to the nearest disk it may buy.
<b>Medium</b> accepts $600 or more (a re-spin is worth $550 on average, so that is the most money to expect)
and heads first for disks left in traffic jams (a take-over costs $200). <b>Hard</b> plans: near the end it
accepts or spins again by its chance to finish with the most money (behind, it spins for a price that can
still win; ahead, it takes a sure win); it drives by the states still to drive for every disk it has to
buy and deliver (a delivery's length: the mean over the cards still in the pile), goes for a jammed disk
only when it can reach it this turn, and looks one turn ahead at the spinner's odds of a jam: among equally
short ways it ends beside a loaded rival or keeps its loaded truck away from an empty one, and with nothing
left to buy it waits beside a loaded rival. In a two-player game the levels still win about as often as
each other: money changes hands at spun prices, and medium already takes the most a price can be expected
to bring, so the spinner decides most games (our measurements: <code>benchmarks/SELFPLAY.md</code>).</p>
<p>Trivia: each level knows each kind of fact with a chance (hard: capitals 92%, nicknames 85%,
populations 80%, years of entry 70%, ranks 60%, years settled 35%;
easy: 45%, 35%, 30%, 15%, 10%, 5%); not knowing, it guesses as a person would (right about one time in
four among likely answers). Asking, it mixes its questions over the facts, asks a stronger answerer harder
ones (judged by the answers given so far) and seldom asks the same kind of question twice running.</p>
"""
