/**
 * Evidence words for telling English from Spanish in short chat messages: function words plus the
 * vocabulary of renting. Entries are lower-case without accents (the detector folds them), so
 * unaccented Spanish ("cuanto cuesta", "sabado") counts the same as accented Spanish. A word that is
 * common in both languages ("no", "a", "me", "son", "come") is in neither list.
 */

const list = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

export const SPANISH_WORDS = list(`
  el la los las un una unos unas de del al y e o que en con por para sin sobre entre hasta desde
  es son esta estan esta estoy estamos soy eres somos ser estar hay fue era sera seria
  yo tu usted ustedes nosotros ellos ella mi mis su sus nuestro nuestra le les lo se nos te
  como cual cuales cuando cuanto cuanta cuantos cuantas donde quien quienes porque pero tambien muy mas
  menos ya aqui alli ahora hoy manana ayer tarde temprano siempre nunca todo todos toda todas otro otra
  este ese esa eso esto algo alguien nada nadie cada mucho mucha muchos muchas poco bien mal
  hola gracias buenos buenas dias tardes noches favor perdon disculpe saludos adios claro perfecto vale
  quiero quisiera queria necesito tengo tiene tienen tenemos puedo puede pueden podemos podria busco
  buscando vivo trabajo llamo llame llamar llamen llamenme escribo hablar habla hable ver visitar visita
  agendar programar pagar saber sabe aceptan acepta incluye incluido incluida disponible disponibles
  cuesta cuestan precio renta alquiler deposito contrato apartamento apartamentos departamento
  departamentos cuarto cuartos recamara recamaras habitacion habitaciones bano banos cocina piso
  edificio estacionamiento piscina gimnasio lavadora secadora mascotas mascota perro perros gato gatos
  oficina horario hora horas abren cierran lunes martes miercoles jueves viernes sabado domingo
  semana mes meses ano agua luz aire acondicionado fuga roto rota rompio funciona arreglar mantenimiento
  urgente ayuda problema queja ruido vecino vecinos llave llaves puerta ventana esposo esposa hijos
  familia nombre numero telefono correo celular informacion interesa interesado interesada gustaria mudarme mudanza
  cerca lejos estudio dos tres cuatro cinco seis uno si
`);

export const ENGLISH_WORDS = list(`
  the an and or of to in on at for with from by about into over under is are was were be been being
  am do does did don't doesn't didn't have has had can can't could would should will won't shall may
  might must i i'm i'd i've i'll you you're your we we're our they their she it it's its my mine
  this that these those there here what what's which who whom whose when where why how any some all
  every each much many more most other another just also only still yet very too not yes please thanks
  thank hello hey hi good morning afternoon evening night sure great awesome cool
  want wanted need needs like would looking look see visit tour schedule book pay paid apply call text
  email know get got make let send help fix broken leak leaking leaks working work works issue problem
  rent rental deposit lease price cost fee fees apartment apartments unit units bedroom bedrooms bed
  beds bathroom bath baths studio floor plans available availability included include includes
  utilities parking garage pool gym laundry washer dryer pets pet dog dogs cat cats allowed allow
  office hours open close closed today tomorrow monday tuesday wednesday thursday friday saturday sunday
  week month months year move moving live living someone anyone agent manager maintenance heater
  water sink toilet door window noise neighbor key keys online someone speak talk name number phone
  interested anything something nothing then than because but if so after before near far
  one two three four five
`);

/** Whole-message replies that say nothing about the language (bilingual users type them in both). */
export const NEUTRAL_WORDS = list(`ok okay oki okey k kk yes yep yeah no nope si sip ya oh ah hmm mm lol xd jaja jajaja haha`);
