/**
 * The public registration flow's own words, in English and French: a bilingual form (is_bilingual) lets
 * the registrant switch, and then the buttons, headings and notices follow along with the organiser's
 * captions. Messages the spec words (validation) stay in the spec's English; receipts and mail are English.
 */
import type { Lang } from "../../core/forms/bilingual";
import { capitalised, countOfPeople, type PeopleLabels } from "../../core/registration/people-labels";

export interface FlowWords {
  steps: { review: string; payment: string; label: string };
  preview: (status: string) => string;
  otherLanguage: string;
  whoIsRegistering: string;
  edit: (name: string) => string;
  numbered: (labels: PeopleLabels, n: number) => string;
  correctFields: string;
  personPrice: (labels: PeopleLabels) => string;
  cartTotal: string;
  priceDetails: string;
  saving: string;
  saveChanges: string;
  addToCart: string;
  backToCart: string;
  yourCart: string;
  cartNumber: (n: string) => string;
  editLink: string;
  remove: string;
  removing: string;
  removeTitle: (name: string) => string;
  removeBody: string;
  addAnother: (labels: PeopleLabels) => string;
  discountCodes: string;
  discountHint: string;
  apply: string;
  applying: string;
  total: string;
  price: { subtotal: string; discount: (code: string) => string; tax: (rate: number | null) => string; donations: string; fee: string };
  receiptEmail: string;
  linkSent: (email: string) => string;
  continueToPay: string;
  oneMoment: string;
  sendLink: string;
  sending: string;
  readyToPay: string;
  readyLine: (cart: { number: string; name: string; people: number; email: string }, labels: PeopleLabels) => string;
  amountDue: string;
  cardFailed: (reason: string) => string;
  cardCancelled: string;
  complete: string;
  registering: string;
  payByCard: (amount: string) => string;
  openingCheckout: string;
  checkoutHint: string;
  payManually: string;
  placeHeld: (club: string) => string;
  nextRegistrant: string;
}

const EN: FlowWords = {
  steps: { review: "Review", payment: "Payment", label: "Registration steps" },
  preview: (status) => `Preview (${status}): only organisers can open this form until it is live and open.`,
  otherLanguage: "Français",
  whoIsRegistering: "Who is registering?",
  edit: (name) => `Edit ${name}`,
  numbered: (labels, n) => `${capitalised(labels.singular)} ${n}`,
  correctFields: "Please correct the fields marked below.",
  personPrice: (labels) => `This ${labels.singular}: `,
  cartTotal: "Cart total: ",
  priceDetails: "Price details",
  saving: "Saving…",
  saveChanges: "Save changes",
  addToCart: "Add to cart",
  backToCart: "Back to the cart",
  yourCart: "Your cart",
  cartNumber: (n) => `No. ${n}`,
  editLink: "Edit",
  remove: "Remove",
  removing: "Removing…",
  removeTitle: (name) => `Remove ${name}?`,
  removeBody: "Their answers leave the cart and its total.",
  addAnother: (labels) => `Add another ${labels.singular}`,
  discountCodes: "Discount codes",
  discountHint: "Separate several codes with spaces.",
  apply: "Apply",
  applying: "Applying…",
  total: "Total",
  price: {
    subtotal: "Subtotal",
    discount: (code) => `Discount ${code}`,
    tax: (rate) => (rate === null ? "Tax" : `Tax (${rate}%)`),
    donations: "Donations",
    fee: "Processing fee",
  },
  receiptEmail: "Email for the receipt",
  linkSent: (email) => `We sent a link to ${email}. Open it on any device to finish.`,
  continueToPay: "Continue to payment",
  oneMoment: "One moment…",
  sendLink: "Email me a link to finish later",
  sending: "Sending…",
  readyToPay: "Ready to pay",
  readyLine: (cart, labels) => `Cart No. ${cart.number}: ${cart.name} (${countOfPeople(cart.people, labels)}). Receipt to ${cart.email}.`,
  amountDue: "Amount due: ",
  cardFailed: (reason) => `Your last card payment did not go through: ${reason} You can try again with another card.`,
  cardCancelled: "The card payment was cancelled. Nothing was charged; your cart is saved.",
  complete: "Complete registration",
  registering: "Registering…",
  payByCard: (amount) => `Pay ${amount} by card`,
  openingCheckout: "Opening the secure payment page…",
  checkoutHint: "You will pay on Stripe's secure page and come back here.",
  payManually: "Register now, pay the club by cash or cheque",
  placeHeld: (club) => `Your place is held; ${club} records your payment when they receive it.`,
  nextRegistrant: "Next registrant",
};

// French nouns have a gender the labels do not carry, so the French sentences avoid agreeing with them.
const FR: FlowWords = {
  steps: { review: "Vérification", payment: "Paiement", label: "Étapes de l’inscription" },
  preview: (status) => `Aperçu (${status}) : seuls les organisateurs peuvent ouvrir ce formulaire tant qu’il n’est pas en ligne et ouvert.`,
  otherLanguage: "English",
  whoIsRegistering: "Qui s’inscrit ?",
  edit: (name) => `Modifier : ${name}`,
  numbered: (labels, n) => `${capitalised(labels.singular)} ${n}`,
  correctFields: "Veuillez corriger les champs indiqués ci-dessous.",
  personPrice: () => "Cette inscription : ",
  cartTotal: "Total du panier : ",
  priceDetails: "Détail du prix",
  saving: "Enregistrement…",
  saveChanges: "Enregistrer les modifications",
  addToCart: "Ajouter au panier",
  backToCart: "Retour au panier",
  yourCart: "Votre panier",
  cartNumber: (n) => `No ${n}`,
  editLink: "Modifier",
  remove: "Retirer",
  removing: "Retrait…",
  removeTitle: (name) => `Retirer ${name} ?`,
  removeBody: "Ses réponses sont retirées du panier et de son total.",
  addAnother: () => "Inscrire quelqu’un d’autre",
  discountCodes: "Codes de réduction",
  discountHint: "Séparez plusieurs codes par des espaces.",
  apply: "Appliquer",
  applying: "Application…",
  total: "Total",
  price: {
    subtotal: "Sous-total",
    discount: (code) => `Réduction ${code}`,
    tax: (rate) => (rate === null ? "Taxe" : `Taxe (${rate} %)`),
    donations: "Dons",
    fee: "Frais de traitement",
  },
  receiptEmail: "Courriel pour le reçu",
  linkSent: (email) => `Nous avons envoyé un lien à ${email}. Ouvrez-le sur n’importe quel appareil pour terminer.`,
  continueToPay: "Continuer vers le paiement",
  oneMoment: "Un instant…",
  sendLink: "M’envoyer un lien pour terminer plus tard",
  sending: "Envoi…",
  readyToPay: "Prêt à payer",
  readyLine: (cart, labels) => `Panier no ${cart.number} : ${cart.name} (${countOfPeople(cart.people, labels)}). Reçu envoyé à ${cart.email}.`,
  amountDue: "Montant dû : ",
  cardFailed: (reason) => `Votre dernier paiement par carte n’a pas abouti : ${reason} Vous pouvez réessayer avec une autre carte.`,
  cardCancelled: "Le paiement par carte a été annulé. Rien n’a été débité et votre panier est conservé.",
  complete: "Terminer l’inscription",
  registering: "Inscription…",
  payByCard: (amount) => `Payer ${amount} par carte`,
  openingCheckout: "Ouverture de la page de paiement sécurisée…",
  checkoutHint: "Vous paierez sur la page sécurisée de Stripe, puis reviendrez ici.",
  payManually: "S’inscrire maintenant et payer le club en argent comptant ou par chèque",
  placeHeld: (club) => `Votre place est réservée; ${club} enregistrera votre paiement à sa réception.`,
  nextRegistrant: "Personne suivante",
};

export const FLOW_WORDS: Readonly<Record<Lang, FlowWords>> = { en: EN, fr: FR };
