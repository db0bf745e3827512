"""The pages' words, French first, English second. The pages fetch them from /api/i18n.

A key missing in English falls back to French; a notice that is not a key is shown as given.
"""

from __future__ import annotations

LANGUAGES = ("fr", "en")

STRINGS: dict[str, dict[str, str]] = {
    "app_name": {"fr": "Arbitre", "en": "Arbitre"},
    "no_game": {"fr": "Aucune partie en cours", "en": "No game in progress"},
    "start_game_hint": {
        "fr": "Lancez une partie depuis /setup (code de la table : {pin})",
        "en": "Start a game from /setup (table PIN: {pin})",
    },
    "table_pin": {"fr": "Code de la table", "en": "Table PIN"},
    "turn": {"fr": "À jouer", "en": "To play"},
    "everyone": {"fr": "Tout le monde", "en": "Everyone"},
    "nobody": {"fr": "Personne", "en": "Nobody"},
    "winner": {"fr": "Gagnant", "en": "Winner"},
    "winners": {"fr": "Gagnants", "en": "Winners"},
    "game_over": {"fr": "Partie terminée", "en": "Game over"},
    "history": {"fr": "Historique", "en": "History"},
    "join": {"fr": "Rejoindre sur un téléphone", "en": "Join on a phone"},
    "seat": {"fr": "Place", "en": "Seat"},
    "score": {"fr": "Score", "en": "Score"},
    "scores": {"fr": "Scores", "en": "Scores"},
    "reserve": {"fr": "Réserve", "en": "Reserve"},
    "out_of_game": {"fr": "Dés hors jeu", "en": "Dice out"},
    "arena": {"fr": "Arène", "en": "Arena"},
    "grand_throw": {"fr": "Grand lancer !", "en": "Grand throw!"},
    "eliminated": {"fr": "éliminé", "en": "out"},
    "roll_dice": {"fr": "Lancez les dés", "en": "Roll the dice"},
    "current_roll": {"fr": "Lancer", "en": "Roll"},
    "still_to_write": {"fr": "Doivent encore écrire", "en": "Still to write"},
    "write_here": {"fr": "Touchez une case pour écrire {sum}", "en": "Tap a cell to write {sum}"},
    "wait_roll": {"fr": "Attendez le prochain lancer", "en": "Wait for the next roll"},
    "wait_others": {"fr": "Les autres écrivent…", "en": "The others are writing…"},
    "choose_symbol": {"fr": "Choisissez votre symbole", "en": "Choose your symbol"},
    "place_pair": {
        "fr": "Touchez deux cases voisines : {a} puis {b}",
        "en": "Tap two neighbouring cells: {a} then {b}",
    },
    "track": {"fr": "Piste", "en": "Track"},
    "played_cards": {"fr": "Cartes jouées", "en": "Cards played"},
    "jousts": {"fr": "Joutes", "en": "Jousts"},
    "your_stack": {"fr": "Votre pile", "en": "Your stack"},
    "stack_hint": {
        "fr": "Touchez les cartes dans l'ordre où elles seront jouées",
        "en": "Tap the cards in the order they will be played",
    },
    "stack_done": {
        "fr": "Pile posée : attendez la révélation",
        "en": "Stack set: wait for the reveal",
    },
    "reveal": {"fr": "Révéler", "en": "Reveal"},
    "last_fight": {"fr": "Dernier combat", "en": "Last fight"},
    "setup_army": {"fr": "Placez votre armée", "en": "Set up your army"},
    "random_fill": {"fr": "Placement au hasard", "en": "Random placement"},
    "swap_hint": {
        "fr": "Touchez deux cases pour échanger les pièces",
        "en": "Tap two squares to swap their pieces",
    },
    "move_hint": {
        "fr": "Touchez une pièce puis sa destination",
        "en": "Tap a piece, then where it goes",
    },
    "send": {"fr": "Valider", "en": "Confirm"},
    "stop": {"fr": "Je m'arrête", "en": "Stop"},
    "go_on": {"fr": "Je continue", "en": "Go on"},
    "undo": {"fr": "Annuler le dernier placement", "en": "Undo last placement"},
    "check_title": {"fr": "À vérifier", "en": "To check"},
    "check_hint": {
        "fr": "Touchez un dé pour corriger sa face, puis validez",
        "en": "Tap a die to correct its face, then confirm",
    },
    "reroll": {"fr": "Relancer le dé", "en": "Re-roll the die"},
    # reasons of a check, as the camera controllers (kiosk/controllers) name them
    "cocked": {"fr": "Un dé est cassé (penché)", "en": "A die is cocked"},
    "unreadable": {"fr": "Un dé est illisible", "en": "A die cannot be read"},
    "low_confidence": {"fr": "Lecture incertaine", "en": "Unsure reading"},
    "bad_count": {"fr": "Ce nombre de dés est impossible", "en": "This number of dice cannot be"},
    "wrong_dice_count": {"fr": "Pas le bon nombre de dés", "en": "Not the right number of dice"},
    "camera_lost": {"fr": "Caméra perdue : reconnexion…", "en": "Camera lost: reconnecting…"},
    "camera_back": {"fr": "Caméra retrouvée", "en": "Camera back"},
    "vanished": {
        "fr": "Un dé a disparu sans être vu hors de l'arène : vérifiez",
        "en": "A die vanished without being seen outside the arena: please check",
    },
    "leftover": {
        "fr": "Un dé à retirer (paire, croix) est peut-être encore dans l'arène : vérifiez",
        "en": "A die to be taken away (a pair, a cross) may still be in the arena: please check",
    },
    "many_left": {
        "fr": "Plusieurs dés auraient quitté l'arène : vérifiez",
        "en": "Several dice would have left the arena: please check",
    },
    "new_game_scan": {
        "fr": "Une nouvelle partie a commencé : scannez à nouveau le QR code de votre place",
        "en": "A new game started: scan your seat's QR code again",
    },
    "reroll_notice": {"fr": "Relancez le dé douteux", "en": "Re-roll the doubtful die"},
    "proposed": {"fr": "Lecture proposée", "en": "Proposed reading"},
    "camera": {"fr": "Caméra", "en": "Camera"},
    "setup_title": {"fr": "Nouvelle partie", "en": "New game"},
    "game": {"fr": "Jeu", "en": "Game"},
    "players": {"fr": "Joueurs", "en": "Players"},
    "options": {"fr": "Options", "en": "Options"},
    "start": {"fr": "Commencer", "en": "Start"},
    "import": {"fr": "Importer un enregistrement", "en": "Import a record"},
    "download": {"fr": "Télécharger la partie", "en": "Download the game"},
    "pin_prompt": {"fr": "Code de la table", "en": "Table PIN"},
    "connected": {"fr": "connecté", "en": "connected"},
    "disconnected": {"fr": "reconnexion…", "en": "reconnecting…"},
    "not_installed": {
        "fr": "Ce jeu n'est pas encore dessiné ici : état brut ci-dessous",
        "en": "This game has no drawing yet: raw state below",
    },
    "your_turn": {"fr": "À vous !", "en": "Your turn!"},
    "not_your_turn": {"fr": "Ce n'est pas votre tour", "en": "Not your turn"},
    "dice_moved_off_turn": {
        "fr": "Dés bougés hors tour : ignorés",
        "en": "Dice moved out of turn: ignored",
    },
    "go_on_notice": {"fr": "{name} continue", "en": "{name} goes on"},
    "language": {"fr": "English", "en": "Français"},
    "phase": {"fr": "Phase", "en": "Phase"},
    "source_camera": {"fr": "caméra", "en": "camera"},
    "source_phone": {"fr": "téléphone", "en": "phone"},
    "source_kiosk": {"fr": "écran", "en": "screen"},
    "source_button": {"fr": "bouton", "en": "button"},
    "source_check": {"fr": "vérifié", "en": "checked"},
    "source_import": {"fr": "importé", "en": "imported"},
    "simulated_camera": {"fr": "caméra simulée", "en": "simulated camera"},
}


def text(key: str, lang: str = "fr", **params: object) -> str:
    """One string in `lang` (French when missing), with {params} filled; unknown keys as given."""
    entry = STRINGS.get(key)
    if entry is None:
        return key
    return entry.get(lang, entry["fr"]).format(**params)
